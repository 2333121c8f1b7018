package scenario_test

import (
	"context"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/chat"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// recordsRC learns as the reference does, but records a refused
// reasoning_content on the must-echo tier too.
type recordsRC struct{ scenario.Reference }

func (r recordsRC) Learn(_ context.Context, s *engine.Session, d engine.Decision, sent []byte, status int, resp []byte) (string, bool, error) {
	added := s.Config.AddRejection(d.Route.Key(), engine.RefusedCarriers(status, resp, chat.SentCarriers(sent)))
	return "recorded " + added.String(), !added.Empty(), nil
}

// silentOnDeepSeek sends DeepSeek no reasoning at all, as a strict row
// would.
type silentOnDeepSeek struct{ scenario.Reference }

func (r silentOnDeepSeek) Decide(ctx context.Context, rt engine.Route, rejected engine.CarrierSet) (engine.Decision, error) {
	d, err := r.Reference.Decide(ctx, rt, rejected)
	d.Carriers, d.Pad = 0, false
	return d, err
}

// TestFallbackLearningRules runs the fallback column's learning steps
// under strict replay (only recorded answers and played ones): the
// reference engine passes them on a must-echo route, a gateway that
// drops the other carriers and keeps reasoning_content, and a strict
// route; an implementation that records reasoning_content on the
// must-echo tier fails, judged before the request no cassette holds; one
// that sends a must-echo route no reasoning_content has nothing to judge
// (n/a); one that never learns is failed by the learning step, not by a
// retry step that had nothing to play.
func TestFallbackLearningRules(t *testing.T) {
	f, profiles := scenariotest.Committed(t)
	tests := []struct {
		impl   func(scenario.Reference) scenario.Implementation
		target string
		status report.Status
		detail []string
		reason string
	}{
		{func(r scenario.Reference) scenario.Implementation { return r }, "deepseek", report.StatusPass,
			[]string{"a complaint about the value of reasoning_content was not learnt (played:", "in the words of providers/deepseek.yaml rule reasoning-content-missing",
				"the provider refusing reasoning_content on a route that must echo it", "was not learnt and not retried", "in the words of providers/cerebras.yaml rule reasoning-content-unsupported",
				"after resume, the verdict held"},
			"DeepSeek's own complaint is played, then a borrowed unknown-field refusal of reasoning_content: neither is learnt"},
		{func(r scenario.Reference) scenario.Implementation { return r }, "openrouter-deepseek", report.StatusPass,
			[]string{"was not learnt for it: reasoning,reasoning_details learnt and retried once, reasoning_content kept"},
			"naming reasoning_content drops the other carriers sent (SPEC §6), never reasoning_content itself"},
		{func(r scenario.Reference) scenario.Implementation { return r }, "mistral", report.StatusPass,
			[]string{"a complaint about the value of reasoning_content was not learnt", "the retry refused again in the same words (played) was not retried",
				"learnt reasoning_content,reasoning,reasoning_details from the refusal and retried once", "after resume, the provider refusing reasoning_content,reasoning,reasoning_details again (played) was neither retried nor relearnt"},
			"a strict route plays every step on the stale row"},
		{func(r scenario.Reference) scenario.Implementation { return recordsRC{r} }, "deepseek", report.StatusFail,
			[]string{"a route that must echo reasoning_content"},
			"recording reasoning_content on the must-echo tier fails, under strict replay too"},
		{func(r scenario.Reference) scenario.Implementation { return recordsRC{r} }, "sambanova", report.StatusFail,
			[]string{"on a route that must echo reasoning_content (the table's deepseek must-echo family)", "but it fails for another cause"},
			"a strict route in the must-echo tier: learning reasoning_content is not the declared failure"},
		{func(r scenario.Reference) scenario.Implementation { return silentOnDeepSeek{r} }, "deepseek", report.StatusNA,
			[]string{"the route sends none, so there is no refusal of it to leave unlearnt"},
			"nothing to refuse, nothing to judge"},
		{func(r scenario.Reference) scenario.Implementation { return deaf{r} }, "mistral", report.StatusFail,
			[]string{"the provider refused the request (422)"},
			"a refusal nobody learns fails at the learning step"},
	}
	for _, tc := range tests {
		r := &scenario.Runner{Matrix: f, Profiles: profiles, CassetteDir: "../cassettes", StrictReplay: true,
			Engine: variant{name: "variant", wrap: tc.impl, t: &f.Table}, Expect: f}
		m, err := r.RunMatrix(context.Background(), []string{tc.target}, []string{"fallback"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		c := m.Cells[0]
		evidence := strings.Join([]string{c.Detail, c.Expected, c.Actual}, "\n")
		if c.Status != tc.status {
			t.Errorf("%s: %s = %s (%s), want %s", tc.reason, c.ID(), c.Status, evidence, tc.status)
			continue
		}
		for _, d := range tc.detail {
			if !strings.Contains(evidence, d) {
				t.Errorf("%s: %s: %q missing from %s", tc.reason, c.ID(), d, evidence)
			}
		}
	}
}
