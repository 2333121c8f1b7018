package evidence

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"

	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/sim"
	"github.com/tidwall/gjson"
)

// simSeed is the signing seed of the simulators that answer recorded
// requests; it matches `make cassettes`, though no answer here depends on
// it (only the status and error wording are compared).
const simSeed = "replaycheck"

// signatureKinds are the rule kinds that verify signatures the simulator
// itself issued.
var signatureKinds = []string{providers.ConditionSignatureInvalid, providers.ConditionSignatureMissing, providers.ConditionSealedBlobForeign}

var ruleInLog = regexp.MustCompile(`-> \d+ rule (\S+)`)

// fidelityCheck runs check 3 on an exchange: the profile's simulator
// answers the recorded request in-process (no listener, no network), with
// the rules that held on the recording's day and for its model, and its
// status — and, for a 4xx, its error wording — must agree with the
// recorded answer. A refusal the profile declares a generation failure
// (the model's output failed, not the request) is unverifiable: no
// request shape predicts it.
func fidelityCheck(p *providers.Profile, x *exchange) report.Check {
	notChecked := func(format string, args ...any) report.Check {
		return report.Check{Verdict: report.VerdictNotChecked, Detail: fmt.Sprintf(format, args...)}
	}
	if x.responseOnly() {
		return notChecked("the fixture recorded the answer only: there is no request to answer")
	}
	if p == nil {
		return notChecked("the target names no provider profile")
	}
	var log []string
	s, err := sim.New(p, sim.Options{Seed: simSeed, Date: x.date, Logf: func(format string, args ...any) { log = append(log, fmt.Sprintf(format, args...)) }})
	if err != nil {
		return notChecked("%v", err)
	}
	u, err := url.Parse(x.it.Request.URL)
	if err != nil {
		return notChecked("the recorded URL does not parse: %v", err)
	}
	req := httptest.NewRequest(x.it.Request.Method, u.RequestURI(), strings.NewReader(x.it.Request.Body))
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	got, want := w.Code, x.it.Response.Code
	rule := ""
	for _, l := range log {
		if m := ruleInLog.FindStringSubmatch(l); m != nil {
			rule = m[1]
		}
	}
	c := report.Check{Rule: rule}
	ruleText := "no rule of profile " + p.Name + " fires"
	if rule != "" {
		ruleText = "rule " + rule + " of profile " + p.Name
	}
	recMsg, simMsg := errorMessage([]byte(x.it.Response.Body)), errorMessage(w.Body.Bytes())
	if got >= 400 && rule == "" && strings.HasPrefix(simMsg, "sim "+p.Name+": ") {
		return notChecked("the simulator cannot read the recorded request (%d): %s", got, shorten(simMsg))
	}
	if x.streamErr != nil {
		return streamFidelity(p, x, c, got, ruleText, simMsg)
	}
	if g, ok := p.Failure(want, []byte(x.it.Response.Body)); ok && got < 400 {
		c.Rule = g.ID
		c.Verdict = report.VerdictUnverifiable
		c.Detail = fmt.Sprintf("recorded %d %s (%q): generation failure %s of profile %s — the model's output failed, which no request shape predicts; the simulator answered %d",
			want, g.Code, shorten(recMsg), g.ID, p.Name, got)
		return c
	}
	switch {
	case got == want && got < 400:
		c.Verdict, c.Detail = report.VerdictAgree, fmt.Sprintf("%d as recorded", got)
	case got == want && sameWording(recMsg, simMsg):
		c.Verdict, c.Detail = report.VerdictAgree, fmt.Sprintf("%d as recorded, with the same wording (%s)", got, ruleText)
	case got >= 400 && isSignatureRule(p, rule):
		// The simulator cannot verify the real provider's signatures, so its
		// signature rule fires first and hides what it would say next.
		recorded := fmt.Sprintf("recorded %d", want)
		if want >= 400 {
			recorded += fmt.Sprintf(" (%q)", shorten(recMsg))
		}
		c.Verdict = report.VerdictUnverifiable
		c.Detail = fmt.Sprintf("%s; the simulator refused with %s (%d): it verifies only the signatures it issued, and the request carries the real provider's", recorded, ruleText, got)
	case got == want:
		c.Verdict = report.VerdictDisagree
		c.Detail = fmt.Sprintf("%d as recorded, but the wording differs (%s): recorded %q, simulated %q", got, ruleText, shorten(recMsg), shorten(simMsg))
	case want >= 400:
		c.Verdict = report.VerdictDisagree
		c.Detail = fmt.Sprintf("recorded %d (%q); the simulator answered %d: %s", want, shorten(recMsg), got, ruleText)
	default:
		c.Verdict = report.VerdictDisagree
		c.Detail = fmt.Sprintf("recorded %d; the simulator refused with %s (%d): %q", want, ruleText, got, shorten(simMsg))
	}
	return c
}

// streamFidelity judges the simulator's answer to a request the provider
// answered with an error inside its 2xx stream: that error is the answer
// to compare with. A generation failure the profile declares
// ([providers.Profile.StreamFailure]) is unverifiable when the simulator
// accepts; a refusal in the same words agrees (the simulator refuses by
// status, the provider refused mid-stream); any other answer disagrees.
func streamFidelity(p *providers.Profile, x *exchange, c report.Check, got int, ruleText, simMsg string) report.Check {
	recMsg := errorMessage(x.streamErr)
	if g, ok := p.StreamFailure(x.streamErr); ok && got < 400 {
		c.Rule = g.ID
		c.Verdict = report.VerdictUnverifiable
		c.Detail = fmt.Sprintf("recorded %s (%q): generation failure %s of profile %s — the model's output failed after the stream began, which no request shape predicts; the simulator answered %d",
			x.status(), shorten(recMsg), g.ID, p.Name, got)
		return c
	}
	switch {
	case got >= 400 && sameWording(recMsg, simMsg):
		c.Verdict = report.VerdictAgree
		c.Detail = fmt.Sprintf("refused as recorded, with the same wording (%s): recorded %s, simulated %d", ruleText, x.status(), got)
	case got >= 400:
		c.Verdict = report.VerdictDisagree
		c.Detail = fmt.Sprintf("recorded %s (%q); the simulator refused with %s (%d): %q", x.status(), shorten(recMsg), ruleText, got, shorten(simMsg))
	default:
		c.Verdict = report.VerdictDisagree
		c.Detail = fmt.Sprintf("recorded %s (%q); the simulator answered %d: %s", x.status(), shorten(recMsg), got, ruleText)
	}
	return c
}

// isSignatureRule reports whether the named rule verifies signatures.
func isSignatureRule(p *providers.Profile, id string) bool {
	for _, r := range p.Rules {
		if r.ID == id {
			for _, k := range signatureKinds {
				if r.When.Kind == k {
					return true
				}
			}
		}
	}
	return false
}

// errorMessage finds the human message of an error body in the envelopes
// providers use (OpenAI-style error.message, flat message, pydantic
// detail[].msg, Google's array form, an SSE-framed body), else the body.
func errorMessage(body []byte) string {
	b := bytes.TrimSpace(body)
	if rest, ok := bytes.CutPrefix(b, []byte("data:")); ok {
		b = bytes.TrimSpace(rest)
	}
	v := gjson.ParseBytes(b)
	for _, p := range []string{"error.message", "message", "detail.0.msg", "0.error.message", "error"} {
		if m := v.Get(p); m.Type == gjson.String && m.Str != "" {
			return m.Str
		}
	}
	return string(b)
}

var digits = regexp.MustCompile(`[0-9]+`)

// sameWording compares two error messages by their stable text: lower
// case, whitespace collapsed, runs of digits (indexes, ids) as one
// placeholder; one containing the other agrees.
func sameWording(a, b string) bool {
	norm := func(s string) string {
		s = digits.ReplaceAllString(strings.ToLower(s), "#")
		return strings.Join(strings.Fields(s), " ")
	}
	na, nb := norm(a), norm(b)
	return na != "" && nb != "" && (strings.Contains(na, nb) || strings.Contains(nb, na))
}
