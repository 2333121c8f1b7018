package evidence

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/dialects"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/tidwall/gjson"
)

// A reproduction is what check 2 needs about one cassette.
type reproduction struct {
	table    *engine.Table
	dia      engine.Dialect
	mode     engine.APIMode
	xs       []*exchange
	captured []capture
	accepted *acceptIndex
	// profile is the target's provider profile: its ignore list is what
	// the comparison takes as harmless ([harmless]).
	profile *providers.Profile
}

// check runs check 2 on exchange k: the recorded request's conversation,
// its assistant turns replaced by the captured answers of the exchanges
// they answer, is shaped for the target's route with the recorded model,
// and the engine's assistant turns are compared with the recorded ones.
func (r *reproduction) check(k int) report.Check {
	x := r.xs[k]
	notChecked := func(format string, args ...any) report.Check {
		return report.Check{Verdict: report.VerdictNotChecked, Detail: fmt.Sprintf(format, args...)}
	}
	if x.responseOnly() {
		return notChecked("the fixture recorded the answer only: there is no request to reproduce")
	}
	if r.dia == nil {
		return notChecked("no dialect for api mode %s", r.mode)
	}
	w, ok := wireOf(r.mode)
	if !ok {
		return notChecked("the evidence checks do not read api mode %s requests", r.mode)
	}
	body := []byte(x.it.Request.Body)
	if !gjson.ValidBytes(body) {
		return notChecked("the recorded request body is not JSON")
	}
	msgs := w.turns(body)
	var hist []engine.Message
	var positions []int // every assistant turn's index in msgs, in order
	var compared []bool // whether positions[i] is compared (not client-written)
	var turns []capture
	var written []string // client-written turns kept as sent
	for n, t := range msgs {
		m, p := t.v, t.at
		if !t.assistant {
			more, err := w.history(m, hist)
			if err != nil {
				return notChecked("%s.%d: %v", w.list, p, err)
			}
			hist = append(hist, more...)
			continue
		}
		j := r.answering(k, p, w)
		if j < 0 && w.mode == engine.ModeChat && !r.fromElsewhere(x) {
			// A chat turn the client wrote (no exchange answers it) is kept
			// in the history as sent, and not compared.
			more, err := w.history(m, hist)
			if err != nil {
				return notChecked("%s.%d: %v", w.list, p, err)
			}
			hist = append(hist, more...)
			written = append(written, fmt.Sprintf("%s.%d", w.list, p))
			positions, compared = append(positions, n), append(compared, false)
			continue
		}
		if j < 0 {
			return notChecked("%s", r.unanswered(x, w, p))
		}
		if r.captured[j].msg == nil {
			return notChecked("the assistant turn at %s.%d answers interaction %d, whose answer could not be captured", w.list, p, j)
		}
		if !holdsAnswer(m, *r.captured[j].msg) {
			// The client rewrote the answer (a test that edits its history):
			// the provider never answered this turn, so it is not the
			// engine's to reproduce.
			return notChecked("the assistant turn at %s.%d does not hold the text interaction %d answered: the client rewrote that history", w.list, p, j)
		}
		hist = append(hist, *r.captured[j].msg)
		positions, compared = append(positions, n), append(compared, true)
		turns = append(turns, r.captured[j])
	}
	switch {
	case len(turns) == 0 && len(written) > 0:
		return notChecked("%s", r.unanswered(x, w, msgIndex(written[0])))
	case len(positions) == 0:
		return report.Check{Verdict: report.VerdictNA, Detail: "the request replays no assistant turn"}
	}
	route := x.engineRoute()
	d := r.table.Decide(route, 0)
	shaped, err := r.dia.Shape(&engine.Session{Messages: hist}, d, engine.Request{Model: route.Model, Stream: x.route.Stream})
	if err != nil {
		return report.Check{Verdict: report.VerdictFail, Detail: "the engine could not shape the request: " + err.Error()}
	}
	var eng []gjson.Result
	for _, t := range w.turns(shaped) {
		if t.assistant {
			eng = append(eng, t.v)
		}
	}
	var findings []report.Finding
	same := 0
	opaque := false
	for i, n := range positions {
		if !compared[i] {
			continue
		}
		c := &comparer{base: w.list + "." + strconv.Itoa(msgs[n].at), accepted: r.accepted, profile: r.profile}
		rec := msgs[n].v
		if i < len(eng) {
			var notes []report.Finding
			rec, eng[i], notes = harmless(r.profile, r.mode, c.base, rec, eng[i])
			c.findings, c.same = append(c.findings, notes...), c.same+len(notes)
			c.value(nil, rec, eng[i])
		} else {
			c.less(nil, rec)
		}
		opaque = opaque || len(c.lessOpaque) > 0 || len(c.moreOpaque) > 0 || hasOpaque(rec)
		findings = append(findings, c.finish()...)
		same += c.same
	}
	for i := len(positions); i < len(eng); i++ {
		c := &comparer{base: w.list + ".(engine assistant turn " + strconv.Itoa(i) + ")", accepted: r.accepted, profile: r.profile}
		c.more(nil, eng[i], gjson.Result{}, "the engine sends an assistant turn the client did not")
		findings = append(findings, c.finish()...)
	}
	out := judge(x, findings, len(findings)-same, len(turns))
	if len(written) > 0 {
		out.Detail += fmt.Sprintf("; %s written by the client (no recorded exchange answers it) kept as sent and not compared", strings.Join(written, ", "))
	}
	if out.Verdict == report.VerdictPass || out.Verdict == report.VerdictAdvisory || out.Verdict == report.VerdictFail {
		out.Scenarios = scenariosOf(r.mode, d, turns, hist, opaque)
	}
	return out
}

// fromElsewhere reports whether an earlier exchange of x's source went to
// another endpoint (its turns may have answered there).
func (r *reproduction) fromElsewhere(x *exchange) bool {
	for _, e := range x.c.File.Provenance.Source.Elsewhere {
		if e.Interaction < x.source {
			return true
		}
	}
	return false
}

// msgIndex reads the index out of "messages.3".
func msgIndex(path string) int {
	i := strings.LastIndexByte(path, '.')
	n, _ := strconv.Atoi(path[i+1:])
	return n
}

// answering returns the exchange that answered the assistant turn at
// position p of exchange k's request: the latest earlier exchange with an
// answer whose request held exactly the p messages before it; -1 when
// there is none.
func (r *reproduction) answering(k, p int, w wireFormat) int {
	for j := k - 1; j >= 0; j-- {
		y := r.xs[j]
		if y.ok() && !y.responseOnly() && len(w.messages([]byte(y.it.Request.Body))) == p {
			return j
		}
	}
	return -1
}

// unanswered says why an assistant turn has no exchange of this cassette
// answering it: an earlier exchange of the source went to another
// endpoint (and maybe to an api mode without a dialect), or the recording
// client wrote the turn itself.
func (r *reproduction) unanswered(x *exchange, w wireFormat, p int) string {
	src := x.c.File.Provenance.Source
	for i := len(src.Elsewhere) - 1; i >= 0; i-- {
		e := src.Elsewhere[i]
		if e.Interaction >= x.source {
			continue
		}
		mode := engine.APIMode(e.APIMode)
		if _, err := dialects.For(mode, r.table); err != nil || mode == "" {
			return fmt.Sprintf("no dialect for api mode %s: the assistant turn at %s.%d was answered by source interaction %d (%s)", e.APIMode, w.list, p, e.Interaction, e.Request)
		}
		return fmt.Sprintf("the assistant turn at %s.%d was answered by source interaction %d (%s, api mode %s) at another endpoint; a turn answered by another provider is not reproduced", w.list, p, e.Interaction, e.Request, e.APIMode)
	}
	return fmt.Sprintf("the assistant turn at %s.%d answers no recorded exchange: the client wrote that history itself", w.list, p)
}

// judge turns the findings into the verdict: a failure if any finding
// fails, else advisory if any is advisory, else a pass. A request whose
// stream began (2xx) and then carried the provider's error was accepted,
// and is judged so. A request the provider refused is judged the other
// way: the engine sending the same
// (no difference but equivalences) fails, and sending something else is
// not evidenced either way.
func judge(x *exchange, findings []report.Finding, differences, turns int) report.Check {
	counts := map[report.Verdict]int{}
	for _, f := range findings {
		counts[f.Verdict]++
	}
	c := report.Check{Findings: findings}
	if !x.ok() && x.streamErr == nil {
		if differences == 0 {
			c.Verdict = report.VerdictFail
			c.Detail = fmt.Sprintf("the engine sends the assistant turns the provider refused (%d)", x.it.Response.Code)
			return c
		}
		c.Verdict = report.VerdictNotChecked
		c.Detail = fmt.Sprintf("the provider refused the recorded request (%d) and the engine's turns differ from it at %d paths: the recording shows neither way", x.it.Response.Code, differences)
		return c
	}
	switch {
	case counts[report.VerdictFail] > 0:
		c.Verdict = report.VerdictFail
		c.Detail = fmt.Sprintf("the engine's %s differ from what the provider accepted: %d failing, %d advisory", plural(turns, "assistant turn"), counts[report.VerdictFail], counts[report.VerdictAdvisory])
	case counts[report.VerdictAdvisory] > 0:
		c.Verdict = report.VerdictAdvisory
		c.Detail = fmt.Sprintf("the engine sends less than the provider accepted, at %d paths of %s", counts[report.VerdictAdvisory], plural(turns, "assistant turn"))
	default:
		c.Verdict = report.VerdictPass
		c.Detail = fmt.Sprintf("the engine sends the %s the client sent and the provider accepted", plural(turns, "assistant turn"))
		if n := counts[report.VerdictPass]; n > 0 {
			c.Detail += fmt.Sprintf(", with %s (equivalent, or shown accepted elsewhere)", plural(n, "note"))
		}
	}
	return c
}

// scenariosOf names the matrix columns a reproduction is evidence for:
// carriers when the replayed turns held reasoning; signed-roundtrip when an
// opaque carrier was in play; missing-echo on a must-echo route replaying
// a tool-call turn; strict-schema on a chat route that sends no carrier.
func scenariosOf(mode engine.APIMode, d engine.Decision, turns []capture, hist []engine.Message, opaque bool) []string {
	reasoning := false
	for _, t := range turns {
		reasoning = reasoning || t.carriers
		opaque = opaque || t.opaque
	}
	var out []string
	if reasoning {
		out = append(out, "carriers")
	}
	if d.EchoFamily != "" && slices.ContainsFunc(hist, func(m engine.Message) bool { return m.Role == "assistant" && m.HasToolCalls() }) {
		out = append(out, "missing-echo")
	}
	if reasoning && mode == engine.ModeChat && d.Carriers.Empty() {
		out = append(out, "strict-schema")
	}
	if opaque {
		out = append(out, "signed-roundtrip")
	}
	return out
}

// hasOpaque reports whether a value holds an opaque carrier.
func hasOpaque(v gjson.Result) bool {
	var found []opaqueAt
	collectOpaque(nil, v, &found)
	return len(found) > 0
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// holdsAnswer reports whether a recorded assistant turn holds the text of
// the answer it replays: every string under a text or content key of the
// turn, joined, contains the answer's text (a client may add to it, as
// reasoning inlined in <think> tags, but not replace it). An answer
// without text proves nothing either way.
func holdsAnswer(turn gjson.Result, answer engine.Message) bool {
	want := strings.TrimSpace(textOf(gjson.ParseBytes(answer.Content), "content"))
	if want == "" {
		return true
	}
	return strings.Contains(textOf(turn, ""), want)
}

// textOf joins the strings of v that sit under a "text" or "content" key
// (key is the key v sits under).
func textOf(v gjson.Result, key string) string {
	switch {
	case v.Type == gjson.String:
		if key == "text" || key == "content" {
			return v.Str
		}
	case v.IsObject() || v.IsArray():
		var b strings.Builder
		v.ForEach(func(k, c gjson.Result) bool {
			ck := k.Str
			if v.IsArray() {
				ck = key
			}
			b.WriteString(textOf(c, ck))
			return true
		})
		return b.String()
	}
	return ""
}
