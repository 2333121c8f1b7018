package scenario

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/sim"
)

// classify says what judged a failing cell: the provider's refusal (with
// the confidence of what refused it), the provider's answer, or a SPEC
// invariant the provider accepted.
func (r *Runner) classify(t matrix.Target, cell *report.Cell, out outcome) {
	if cell.Status != report.StatusFail && cell.Status != report.StatusKnownFail {
		return
	}
	refused, ok := refusedExchange(out)
	switch {
	case ok && (cell.ProviderError != "" || strings.Contains(cell.Actual, "refused")):
		cell.Verdict = report.VerdictRefused
		cell.Confidence = r.refusalConfidence(t, cell.Provenance, refused.path, refused.body)
	case strings.HasPrefix(cell.Detail, UndeclaredAdvisory) || strings.Contains(cell.Actual, "the provider answered") ||
		strings.Contains(cell.Detail, "answer"):
		cell.Verdict = report.VerdictAnswer
	default:
		cell.Verdict = report.VerdictInvariant
	}
}

// refusedRequest is a request the provider refused: its path and body.
type refusedRequest struct {
	path string
	body []byte
}

// refusedExchange returns the last request of the cell the provider
// refused.
func refusedExchange(out outcome) (refusedRequest, bool) {
	if out.conv == nil {
		return refusedRequest{}, false
	}
	for i := len(out.conv.Exchanges) - 1; i >= 0; i-- {
		if ex := out.conv.Exchanges[i]; ex.Status >= 400 {
			return refusedRequest{path: ex.Path, body: ex.Body}, true
		}
	}
	return refusedRequest{}, false
}

// refusalConfidence is how sure a refusal is: recorded live, or the
// confidence of the profile rule the target's simulator refuses the same
// request with (the rule's own, else its profile's).
func (r *Runner) refusalConfidence(t matrix.Target, provenance, path string, body []byte) string {
	if provenance == report.ProvenanceRecorded {
		return report.ConfidenceRecorded
	}
	p, ok := r.Profiles[t.Profile]
	if !ok {
		return ""
	}
	m, err := r.matching(t)
	if err != nil || m == nil || m.Fallback == nil {
		return p.Confidence
	}
	full := path
	if u, err := url.Parse(t.Route.BaseURL); err == nil {
		full = strings.TrimSuffix(u.Path, "/") + path
	}
	req := httptest.NewRequest(http.MethodPost, full, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	m.Fallback.ServeHTTP(rec, req)
	id := rec.Header().Get(sim.RuleHeader)
	for _, rule := range p.Rules {
		if rule.ID == id && rule.Confidence != "" {
			return rule.Confidence
		}
	}
	return p.Confidence
}
