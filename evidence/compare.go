package evidence

import (
	"encoding/base64"
	"slices"
	"strconv"
	"strings"

	"github.com/replaycheck/replaycheck/internal/jsondiff"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/tidwall/gjson"
)

// A comparer holds one recorded assistant turn (what the client sent and
// the provider accepted) against the engine's wire copy of the same turn
// and collects the differences as findings. It walks both JSON values
// together:
//
//   - objects key by key; a key only the recording has is something the
//     engine sends less of (advisory), a key only the engine has is more
//     (a failure, unless another accepted request of the target carries
//     the same path with a value of the same kind);
//   - arrays (content blocks, parts, reasoning_details items, tool calls)
//     element by element after aligning them by kind (an element's type,
//     or its payload key) with a longest common subsequence, so a dropped
//     thinking block reads as one block less, not as every later block
//     changed;
//   - opaque carriers ([isOpaque]) byte for byte and in position: the
//     same bytes at the same path pass; the same bytes at another path are
//     a moved carrier (a failure: signed blocks are position-bound); other
//     bytes are a failure, except the same bytes in another base64
//     alphabet (a recording SDK re-encoding), which passes with a note;
//   - other strings: the engine's text contained in the recorded one is
//     less (the client added to it, e.g. reasoning inlined as <think>
//     tags); anything else different is a failure; numbers, booleans and
//     null by their canonical JSON ([jsondiff.Equal]); null where the
//     client sent a value is less.
type comparer struct {
	base     string
	accepted *acceptIndex
	// profile is the target's provider profile: a carrier it documents the
	// provider reading (reads:) is not a failure when the engine sends it
	// and the client did not ([documented]).
	profile  *providers.Profile
	findings []report.Finding
	// same counts the findings that are notes of an equivalence (the same
	// bytes re-encoded, null for an empty value), not differences.
	same int
	// opaque carriers present on one side only, paired into "moved"
	// findings by [comparer.finish].
	lessOpaque, moreOpaque []opaqueAt
}

type opaqueAt struct {
	path  []string
	value string
}

// pathText renders a relative path under the comparer's base in gjson dot
// syntax.
func (c *comparer) pathText(path []string) string {
	parts := append([]string{c.base}, path...)
	return strings.Join(parts, ".")
}

// escapeKey escapes the characters gjson reads as path syntax.
func escapeKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		if strings.ContainsRune(".*?|#@\\", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func kindOf(v gjson.Result) string {
	switch {
	case !v.Exists():
		return "absent"
	case v.IsObject():
		return "object"
	case v.IsArray():
		return "array"
	case v.Type == gjson.String:
		return "string"
	case v.Type == gjson.Number:
		return "number"
	case v.Type == gjson.Null:
		return "null"
	}
	return "bool"
}

// text renders a value for a finding: its canonical JSON, shortened.
func text(v gjson.Result) string {
	if !v.Exists() {
		return jsondiff.Absent
	}
	if c, err := jsondiff.Canonical([]byte(v.Raw)); err == nil {
		return shorten(string(c))
	}
	return shorten(v.Raw)
}

func (c *comparer) add(path []string, eng, rec gjson.Result, v report.Verdict, why string) {
	c.findings = append(c.findings, report.Finding{Path: c.pathText(path), Engine: text(eng), Recorded: text(rec), Verdict: v, Why: why})
}

func with(path []string, seg string) []string {
	return append(append([]string(nil), path...), seg)
}

// value compares the recorded value rec with the engine's eng at path.
func (c *comparer) value(path []string, rec, eng gjson.Result) {
	rk, ek := kindOf(rec), kindOf(eng)
	switch {
	case rk != ek && ek == "null" && (rec.Raw == `""` || rec.Raw == "[]"):
		c.add(path, eng, rec, report.VerdictPass, "null where the client sent "+rec.Raw+": the same empty value")
		c.same++
		return
	case rk != ek && ek == "null":
		c.add(path, eng, rec, report.VerdictAdvisory, "the engine sends null where the client sent a "+rk+": less than the provider accepted")
		return
	case rk != ek:
		c.more(path, eng, rec, "the engine sends a "+ek+" where the client sent a "+rk)
		return
	}
	switch rk {
	case "object":
		c.object(path, rec, eng)
	case "array":
		c.array(path, rec, eng)
	case "string":
		c.str(path, rec, eng)
	default:
		if ok, _ := jsondiff.Equal([]byte(rec.Raw), []byte(eng.Raw)); !ok {
			c.add(path, eng, rec, report.VerdictFail, "the engine sends another value")
		}
	}
}

func (c *comparer) object(path []string, rec, eng gjson.Result) {
	rkeys := keys(rec)
	for _, k := range rkeys {
		p := with(path, escapeKey(k))
		rv, ev := member(rec, k), member(eng, k)
		opaque := isOpaque(k, rec) && rv.Type == gjson.String
		switch {
		case !ev.Exists() && opaque:
			c.lessOpaque = append(c.lessOpaque, opaqueAt{p, rv.Str})
		case !ev.Exists():
			c.add(p, ev, rv, report.VerdictAdvisory, "the engine leaves out what the provider accepted")
		case opaque && ev.Type == gjson.String:
			c.opaque(p, rv, ev)
		default:
			c.value(p, rv, ev)
		}
	}
	for _, k := range keys(eng) {
		if slices.Contains(rkeys, k) {
			continue
		}
		p := with(path, escapeKey(k))
		ev := member(eng, k)
		if isOpaque(k, eng) && ev.Type == gjson.String {
			c.moreOpaque = append(c.moreOpaque, opaqueAt{p, ev.Str})
			continue
		}
		c.more(p, ev, gjson.Result{}, "the engine sends what the client did not")
	}
}

// array aligns the elements by kind and compares the aligned pairs.
func (c *comparer) array(path []string, rec, eng gjson.Result) {
	ra, ea := rec.Array(), eng.Array()
	pairs := align(ra, ea)
	ri, ei := 0, 0
	for _, pr := range append(pairs, [2]int{len(ra), len(ea)}) {
		for ; ri < pr[0]; ri++ {
			c.less(with(path, strconv.Itoa(ri)), ra[ri])
		}
		for ; ei < pr[1]; ei++ {
			c.more(with(path, "(engine "+strconv.Itoa(ei)+")"), ea[ei], gjson.Result{}, "the engine sends an element the client did not")
		}
		if pr[0] < len(ra) && pr[1] < len(ea) {
			c.value(with(path, strconv.Itoa(pr[0])), ra[pr[0]], ea[pr[1]])
			ri, ei = pr[0]+1, pr[1]+1
		}
	}
}

// less records a recorded value the engine does not send, collecting the
// opaque carriers inside it for move detection.
func (c *comparer) less(path []string, rv gjson.Result) {
	var inner []opaqueAt
	collectOpaque(path, rv, &inner)
	c.lessOpaque = append(c.lessOpaque, inner...)
	c.add(path, gjson.Result{}, rv, report.VerdictAdvisory, "the engine leaves out what the provider accepted")
}

// more records something the engine sends that the client did not: a
// failure unless another accepted request of the target carries the same
// path with a value of the same kind.
func (c *comparer) more(path []string, ev, rv gjson.Result, why string) {
	var inner []opaqueAt
	collectOpaque(path, ev, &inner)
	c.moreOpaque = append(c.moreOpaque, inner...)
	if where, ok := c.accepted.shows(path, kindOf(ev)); ok {
		c.add(path, ev, rv, report.VerdictPass, why+", but "+where+" shows the provider accepting it")
		return
	}
	if doc, ok := documented(c.profile, path); ok {
		c.add(path, ev, rv, report.VerdictPass, why+", but "+doc)
		return
	}
	c.add(path, ev, rv, report.VerdictFail, why+": the provider was not recorded accepting it")
}

// documented reports whether the profile documents the provider reading
// the carrier at path (a top-level reasoning_content, reasoning or
// reasoning_details of the turn, listed in its reads:), and says so with
// the profile's confidence and first sources.
func documented(p *providers.Profile, path []string) (string, bool) {
	if p == nil || len(path) != 1 || !slices.Contains(p.Reads, path[0]) {
		return "", false
	}
	switch path[0] {
	case "reasoning_content", "reasoning", "reasoning_details":
	default:
		return "", false
	}
	return "profile " + p.Name + " documents the provider reading " + path[0] + " (" + p.Confidence + "; " + strings.Join(p.Sources[:min(2, len(p.Sources))], "; ") + ")", true
}

func (c *comparer) str(path []string, rec, eng gjson.Result) {
	r, e := rec.Str, eng.Str
	switch {
	case r == e:
	case strings.TrimSpace(e) == "" || strings.Contains(r, strings.TrimSpace(e)):
		c.add(path, eng, rec, report.VerdictAdvisory, "the engine's text is part of the recorded text: the client sent more here (for instance reasoning inlined into the content)")
	case strings.Contains(e, strings.TrimSpace(r)):
		c.add(path, eng, rec, report.VerdictFail, "the engine sends more text than the client did")
	default:
		c.add(path, eng, rec, report.VerdictFail, "the engine sends other text than the client did")
	}
}

func (c *comparer) opaque(path []string, rec, eng gjson.Result) {
	switch {
	case rec.Str == eng.Str:
	case sameBase64(rec.Str, eng.Str):
		c.add(path, eng, rec, report.VerdictPass, "the same bytes in another base64 alphabet: the recording client re-encoded the carrier; the engine echoes the provider's own text")
		c.same++
	default:
		c.add(path, eng, rec, report.VerdictFail, "the engine sends other bytes for an opaque carrier")
	}
}

// finish pairs opaque carriers found on one side only: the same value on
// both sides is a moved carrier; the rest are less (advisory) or more (a
// failure unless the target's recordings show the value accepted).
func (c *comparer) finish() []report.Finding {
	moved := map[int]bool{}
	for _, m := range c.moreOpaque {
		i := slices.IndexFunc(c.lessOpaque, func(l opaqueAt) bool { return l.value == m.value })
		if i >= 0 && !moved[i] {
			moved[i] = true
			c.add(m.path, gjson.Parse(strconv.Quote(m.value)), gjson.Parse(strconv.Quote(c.lessOpaque[i].value)), report.VerdictFail,
				"an opaque carrier moved: the client sent it at "+c.pathText(c.lessOpaque[i].path)+"; signed carriers are bound to their position")
			continue
		}
		if c.covered(m.path) {
			continue
		}
		v := gjson.Parse(strconv.Quote(m.value))
		if where, ok := c.accepted.opaque[m.value]; ok {
			c.add(m.path, v, gjson.Result{}, report.VerdictPass, "the engine sends an opaque carrier the client did not here, but "+where+" shows the provider accepting it")
			continue
		}
		c.add(m.path, v, gjson.Result{}, report.VerdictFail, "the engine sends an opaque carrier the provider was not recorded accepting")
	}
	for i, l := range c.lessOpaque {
		if !moved[i] && !c.covered(l.path) {
			c.add(l.path, gjson.Result{}, gjson.Parse(strconv.Quote(l.value)), report.VerdictAdvisory, "the engine leaves out an opaque carrier the provider accepted")
		}
	}
	slices.SortStableFunc(c.findings, func(a, b report.Finding) int { return strings.Compare(a.Path, b.Path) })
	return c.findings
}

// covered reports whether a finding already names path or a parent of it
// (a whole block left out).
func (c *comparer) covered(path []string) bool {
	p := c.pathText(path)
	for _, f := range c.findings {
		if f.Path != p && strings.HasPrefix(p, f.Path+".") {
			return true
		}
	}
	return false
}

// collectOpaque lists the opaque carriers inside a value.
func collectOpaque(path []string, v gjson.Result, out *[]opaqueAt) {
	switch {
	case v.IsObject():
		for _, k := range keys(v) {
			m := member(v, k)
			if isOpaque(k, v) && m.Type == gjson.String {
				*out = append(*out, opaqueAt{with(path, escapeKey(k)), m.Str})
			} else {
				collectOpaque(with(path, escapeKey(k)), m, out)
			}
		}
	case v.IsArray():
		for i, e := range v.Array() {
			collectOpaque(with(path, strconv.Itoa(i)), e, out)
		}
	}
}

// keys lists an object's keys in order.
func keys(v gjson.Result) []string {
	var out []string
	v.ForEach(func(k, _ gjson.Result) bool { out = append(out, k.Str); return true })
	return out
}

// member returns the value of a literal key (no path syntax).
func member(v gjson.Result, key string) gjson.Result {
	var out gjson.Result
	v.ForEach(func(k, val gjson.Result) bool {
		if k.Str == key {
			out = val
			return false
		}
		return true
	})
	return out
}

// elementKind is what arrays are aligned by: an object's type, else its
// keys that are not opaque carriers (a Gemini part's functionCall or text,
// a Converse block's reasoningContent); a scalar's own text.
func elementKind(v gjson.Result) string {
	if !v.IsObject() {
		return kindOf(v) + ":" + v.Raw
	}
	if t := member(v, "type"); t.Type == gjson.String {
		return "type:" + t.Str
	}
	var ks []string
	for _, k := range keys(v) {
		if !isOpaque(k, v) {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return "keys:" + strings.Join(ks, ",")
}

// align returns the index pairs of a longest common subsequence of the two
// arrays' element kinds.
func align(a, b []gjson.Result) [][2]int {
	ka, kb := make([]string, len(a)), make([]string, len(b))
	for i, v := range a {
		ka[i] = elementKind(v)
	}
	for i, v := range b {
		kb[i] = elementKind(v)
	}
	n, m := len(ka), len(kb)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if ka[i] == kb[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case ka[i] == kb[j]:
			out = append(out, [2]int{i, j})
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

// sameBase64 reports whether two texts are the same bytes written in the
// standard and the URL-safe base64 alphabets (padded or not).
func sameBase64(a, b string) bool {
	da, okA := decode64(a)
	db, okB := decode64(b)
	return okA && okB && string(da) == string(db)
}

func decode64(s string) ([]byte, bool) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, true
		}
	}
	return nil, false
}
