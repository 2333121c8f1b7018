package sim

import (
	"testing"

	"github.com/replaycheck/replaycheck/providers"
)

// TestRuleHeader: a refusal names its rule in RuleHeader, so the replay
// harness can say which rule judged a request no cassette holds; a 200 and
// the simulator's own errors (a request it cannot read) name none.
func TestRuleHeader(t *testing.T) {
	p := profile("c", modeChat, []string{"reasoning"}, withRule(cond(providers.ConditionAssistantFieldPresent, "reasoning_content")))
	s := newSim(t, p, testSeed)
	tests := []struct {
		body, rule string
		status     int
		reason     string
	}{
		{`{"model":"m","messages":[{"role":"assistant","content":"a","reasoning_content":"r"},{"role":"user","content":"q"}]}`, "rule-assistant-field-present", 400, "a rule refuses"},
		{`{"model":"m","messages":[{"role":"user","content":"q"}]}`, "", 200, "an answer names no rule"},
		{`{"model":"m"}`, "", 400, "the simulator's own error names no rule"},
	}
	for _, tc := range tests {
		rec := post(s, "/v1/chat/completions", tc.body)
		if rec.Code != tc.status || rec.Header().Get(RuleHeader) != tc.rule {
			t.Errorf("%s: %d with %s %q, want %d and %q", tc.reason, rec.Code, RuleHeader, rec.Header().Get(RuleHeader), tc.status, tc.rule)
		}
		if rec.Header().Get(SimulatorHeader) != "c/v1" {
			t.Errorf("%s: %s %q", tc.reason, SimulatorHeader, rec.Header().Get(SimulatorHeader))
		}
	}
}
