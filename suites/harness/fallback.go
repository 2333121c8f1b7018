package harness

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"

	"github.com/replaycheck/replaycheck/providers"
)

// Matching widens a replay beyond exact matching, in two steps after the
// exact canonical match fails: a recorded request that differs only in
// the differences the provider's profile declares ignorable gives its
// recorded answer; a request that still matches nothing is answered by
// the provider's simulator (the profile executed), so the cell is judged
// by the profile instead of left unverified. The zero Matching (and a nil
// one) is strict replay: exact matching only.
type Matching struct {
	// Profile is the target's provider profile; its Ignore declarations
	// are the differences loose matching takes out.
	Profile *providers.Profile
	// Fallback answers what no recorded request matches: the profile's
	// simulator. Nil leaves such a request unmatched (unverified).
	Fallback http.Handler
}

// differences returns the declared ignorable differences.
func (m *Matching) differences() []string {
	if m == nil || m.Profile == nil {
		return nil
	}
	var out []string
	for _, ig := range m.Profile.Ignore {
		out = append(out, ig.Difference)
	}
	return out
}

// A LooseMatch is a request answered by a recorded interaction it equals
// only up to declared differences.
type LooseMatch struct {
	// Interaction is the index of the recorded interaction that answered.
	Interaction int
	// Differences are the declared differences the match relied on.
	Differences []string
}

// A Judgement is a request no recorded interaction matched, answered by
// the profile's simulator.
type Judgement struct {
	// Status is the simulator's answer.
	Status int
	// Rule is the profile rule that refused it, "" when none fired.
	Rule string
}

// loose finds a recorded interaction equal to the request up to the
// declared differences, or -1.
func (r *Replay) loose(method, path string, body []byte) (int, []string) {
	declared := r.Matching.differences()
	if len(declared) == 0 || len(bytes.TrimSpace(body)) == 0 {
		return -1, nil
	}
	sent, err := normalize(body, declared)
	if err != nil {
		return -1, nil
	}
	for i, it := range r.File.Interactions {
		u, err := url.Parse(it.Request.URL)
		if it.Request.Method != method || err != nil || u.Path != path {
			continue
		}
		rec, ok := r.normalized(i, declared)
		if ok && bytes.Equal(rec, sent) {
			return i, needed(body, []byte(it.Request.Body), declared)
		}
	}
	return -1, nil
}

// normalized returns the normalised body of the i-th interaction, computed
// once.
func (r *Replay) normalized(i int, declared []string) ([]byte, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.norm == nil {
		r.norm = map[int][]byte{}
	}
	if b, ok := r.norm[i]; ok {
		return b, b != nil
	}
	b, err := normalize([]byte(r.File.Interactions[i].Request.Body), declared)
	if err != nil {
		b = nil
	}
	r.norm[i] = b
	return b, b != nil
}

// judge asks the fallback simulator; ok is false when there is none or it
// could not read the request as a model call (its own error, no rule
// named), which leaves the request unmatched.
func (r *Replay) judge(req *http.Request, body []byte) (*http.Response, string, bool) {
	if r.Matching == nil || r.Matching.Fallback == nil {
		return nil, "", false
	}
	in := req.Clone(req.Context())
	in.Body = io.NopCloser(bytes.NewReader(body))
	in.ContentLength = int64(len(body))
	w := httptest.NewRecorder()
	r.Matching.Fallback.ServeHTTP(w, in)
	resp := w.Result()
	rule := resp.Header.Get(ruleHeader)
	if resp.StatusCode >= 400 && rule == "" {
		return nil, fmt.Sprintf("the %s profile's simulator could not judge it (%d: %s)", r.Matching.Profile.Name, resp.StatusCode, bytes.TrimSpace(w.Body.Bytes())), false
	}
	if r.File.Provenance.Kind == Recorded && foreignOpaque(r.Matching.Profile, rule) {
		return nil, fmt.Sprintf("the %s profile's simulator refused it by rule %s, but it cannot verify opaque values a live provider issued: not judged", r.Matching.Profile.Name, rule), false
	}
	r.mu.Lock()
	r.judged = append(r.judged, Judgement{Status: resp.StatusCode, Rule: rule})
	r.mu.Unlock()
	resp.Request = req
	return resp, "", true
}

// ruleHeader is the simulator's header naming the rule that refused a
// request (sim.RuleHeader; the harness does not import the simulator).
const ruleHeader = "Replaycheck-Rule"

// LooseMatches returns the requests answered up to declared differences,
// in order.
func (r *Replay) LooseMatches() []LooseMatch {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]LooseMatch(nil), r.loosened...)
}

// Judgements returns the requests the profile's simulator answered, in
// order.
func (r *Replay) Judgements() []Judgement {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Judgement(nil), r.judged...)
}

// ProfileOf returns the matching's profile, nil for strict replay.
func (m *Matching) ProfileOf() *providers.Profile {
	if m == nil {
		return nil
	}
	return m.Profile
}

// foreignOpaque reports whether rule is one that checks an opaque value
// against the simulator's own key: the simulator cannot verify what a live
// provider signed or sealed, so against a recorded cassette such a
// refusal is no judgement.
func foreignOpaque(p *providers.Profile, rule string) bool {
	for _, r := range p.Rules {
		if r.ID == rule {
			return r.When.Kind == providers.ConditionSignatureInvalid || r.When.Kind == providers.ConditionSealedBlobForeign
		}
	}
	return false
}
