package evidence

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/report"
	"github.com/tidwall/gjson"
)

// A capture is what check 1 made of an answer: the stored message (nil
// when the answer was refused or could not be captured) and whether the
// answer held carriers, and opaque ones.
type capture struct {
	msg              *engine.Message
	carriers, opaque bool
}

// captureCheck runs check 1 on an exchange: the dialect captures the
// answer, and every carrier the answer holds must be in the stored message
// verbatim.
func captureCheck(dia engine.Dialect, mode engine.APIMode, x *exchange) (report.Check, capture) {
	if x.streamErr != nil {
		return report.Check{Verdict: report.VerdictNA, Detail: fmt.Sprintf("the provider answered with %s: %q; its answer, not a capture failure: no answer to capture",
			x.status(), shorten(errorMessage(x.streamErr)))}, capture{}
	}
	if !x.ok() {
		return report.Check{Verdict: report.VerdictNA, Detail: fmt.Sprintf("the provider refused the request (%d): no answer to capture", x.it.Response.Code)}, capture{}
	}
	if dia == nil {
		return report.Check{Verdict: report.VerdictNotChecked, Detail: "no dialect for api mode " + string(mode)}, capture{}
	}
	if b, ok := dia.(engine.RouteBinder); ok {
		dia = b.ForRoute(x.engineRoute()) // the stored turn names the route that issued it
	}
	body := []byte(x.it.Response.Body)
	var msg engine.Message
	var err error
	if x.route.Stream {
		msg, err = dia.CaptureStream(bytes.NewReader(body))
	} else {
		msg, err = dia.Capture(body)
	}
	if err != nil {
		return report.Check{Verdict: report.VerdictFail, Detail: "capture failed: " + err.Error()}, capture{}
	}
	want, err := answerCarriers(mode, body, x.route.Stream)
	if err != nil {
		return report.Check{Verdict: report.VerdictFail, Detail: "the answer's carriers cannot be read: " + err.Error()}, capture{msg: &msg}
	}
	stored, _ := msg.MarshalJSON()
	held := storedStrings(stored)
	c := report.Check{Verdict: report.VerdictPass}
	var paths []string
	opaque := false
	for _, w := range want {
		opaque = opaque || w.opaque
		paths = append(paths, w.path)
		if !held[w.value] {
			c.Findings = append(c.Findings, report.Finding{Path: w.path, Engine: "(not stored)", Recorded: shorten(w.value),
				Verdict: report.VerdictFail, Why: "the stored message does not hold this carrier verbatim"})
		}
	}
	if opaque {
		c.Scenarios = []string{"signed-roundtrip"}
	}
	switch {
	case len(want) == 0:
		c.Detail = "no carrier in the answer"
	case len(c.Findings) > 0:
		c.Verdict = report.VerdictFail
		c.Detail = fmt.Sprintf("%d of %s not stored verbatim", len(c.Findings), plural(len(want), "carrier"))
	default:
		c.Detail = fmt.Sprintf("%s held verbatim: %s", plural(len(want), "carrier"), listed(paths, 6))
	}
	return c, capture{msg: &msg, carriers: len(want) > 0, opaque: opaque}
}

// storedStrings collects every string value of a stored message's JSON,
// at any depth (native blocks, reasoning_details items, extra_content).
func storedStrings(b []byte) map[string]bool {
	out := map[string]bool{}
	var walk func(v gjson.Result)
	walk = func(v gjson.Result) {
		switch {
		case v.Type == gjson.String:
			out[v.Str] = true
		case v.IsObject() || v.IsArray():
			v.ForEach(func(_, c gjson.Result) bool { walk(c); return true })
		}
	}
	walk(gjson.ParseBytes(b))
	return out
}

// listed joins at most n items, saying how many more there are.
func listed(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
}

// shorten cuts a value shown in a finding to 120 bytes, saying how much
// was left out, at a UTF-8 boundary.
func shorten(s string) string {
	const max = 120
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut] + fmt.Sprintf("…(+%d bytes)", len(s)-cut)
}
