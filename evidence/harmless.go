package evidence

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/tidwall/gjson"
)

// harmless takes the differences the target's profile declares harmless
// (its ignore list, read by [providers.TakeOut] as cassette matching
// reads it) out of a recorded chat turn and the engine's, so that the
// comparison never fails on them. A difference is taken out only where it
// is all the two turns differ in there: every key it removes, from either
// side, must be gone from both (a null content beside tool calls against
// the client's none, not against the client's text). Each difference
// taken out where the two turns differed becomes a note citing the
// declaration's source. Other api modes, and a profile that declares nothing, leave
// both turns as they are.
func harmless(p *providers.Profile, mode engine.APIMode, at string, rec, eng gjson.Result) (gjson.Result, gjson.Result, []report.Finding) {
	if p == nil || len(p.Ignore) == 0 || mode != engine.ModeChat {
		return rec, eng, nil
	}
	var notes []report.Finding
	for _, ig := range p.Ignore {
		d := []string{ig.Difference}
		rec2, fromRec, okR := takeOut(rec, d)
		eng2, fromEng, okE := takeOut(eng, d)
		if !okR || !okE || (len(fromRec) == 0 && len(fromEng) == 0) {
			continue
		}
		beforeR, beforeE, afterR, afterE := leaves(rec), leaves(eng), leaves(rec2), leaves(eng2)
		removed := map[string]bool{}
		for _, side := range [][2]map[string]string{{beforeR, afterR}, {beforeE, afterE}} {
			for k := range side[0] {
				if _, kept := side[1][k]; !kept {
					removed[k] = true
				}
			}
		}
		allGone, differed := true, false
		for k := range removed {
			_, inR := afterR[k]
			_, inE := afterE[k]
			vr, hasR := beforeR[k]
			ve, hasE := beforeE[k]
			allGone = allGone && !inR && !inE
			differed = differed || hasR != hasE || vr != ve
		}
		if !allGone {
			continue
		}
		rec, eng = rec2, eng2
		if differed {
			notes = append(notes, report.Finding{Path: at, Engine: "(as shaped)", Recorded: "(as sent)", Verdict: report.VerdictPass,
				Why: fmt.Sprintf("the turns differ in %s, which profile %s declares harmless (%s, %s)", ig.Difference, p.Name, ig.Source, ig.Confidence)})
		}
	}
	return rec, eng, notes
}

// leaves maps the path of each of a value's members, at any depth, to
// its JSON text.
func leaves(v gjson.Result) map[string]string {
	out := map[string]string{}
	var walk func(prefix string, v gjson.Result)
	walk = func(prefix string, v gjson.Result) {
		i := 0
		v.ForEach(func(k, c gjson.Result) bool {
			p := prefix + "." + escapeKey(k.String())
			if v.IsArray() {
				p = prefix + "." + strconv.Itoa(i)
			}
			i++
			out[p] = c.Raw
			if c.IsObject() || c.IsArray() {
				walk(p, c)
			}
			return true
		})
	}
	if v.IsObject() || v.IsArray() {
		walk("", v)
	}
	return out
}

// takeOut applies [providers.TakeOut] to one message; ok is false for a
// value that does not decode.
func takeOut(v gjson.Result, declared []string) (gjson.Result, []string, bool) {
	dec := json.NewDecoder(bytes.NewReader([]byte(v.Raw)))
	dec.UseNumber()
	var m any
	if err := dec.Decode(&m); err != nil {
		return v, nil, false
	}
	changed := providers.TakeOut(m, declared)
	if len(changed) == 0 {
		return v, nil, true
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return v, nil, false
	}
	return gjson.ParseBytes(bytes.TrimSpace(buf.Bytes())), changed, true
}
