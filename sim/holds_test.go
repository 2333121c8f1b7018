package sim

import (
	"testing"

	"github.com/replaycheck/replaycheck/providers"
)

// TestRulesOfTheirDay answers as the day the options name: a rule that no
// longer holds applies only to days before its until, and one that
// started later only from its from; today is the rules without until.
func TestRulesOfTheirDay(t *testing.T) {
	missing := providers.Condition{Kind: providers.ConditionToolTurnFieldMissing, Field: "reasoning_content"}
	p := profile("days", modeChat, []string{"reasoning_content"},
		withRule(missing, func(r *providers.Rule) { r.ID, r.Until, r.Status = "old-wording", "2026-04-01", 400 }),
		withRule(missing, func(r *providers.Rule) { r.ID, r.From, r.Status = "new-wording", "2026-04-01", 422 }))
	body := chatBody("m", user("a"), asst(toolCalls), toolResult())
	for _, tc := range []struct {
		day  string
		want int
	}{{"2026-03-31", 400}, {"2026-04-01", 422}, {"", 422}} {
		s, err := New(p, Options{Seed: testSeed, Date: tc.day})
		if err != nil {
			t.Fatal(err)
		}
		if got := post(s, "/v1/chat/completions", body).Code; got != tc.want {
			t.Errorf("on %q: %d, want %d", tc.day, got, tc.want)
		}
	}
}

// TestTopLevelValues refuses a top-level field only when it holds one of
// the condition's values.
func TestTopLevelValues(t *testing.T) {
	c := providers.Condition{Kind: providers.ConditionTopLevelFieldPresent, Field: "output_config.effort", Values: []string{"xhigh"}}
	s := newSim(t, profile("effort", modeChat, []string{"reasoning_content"}, withRule(c)), testSeed)
	for _, tc := range []struct {
		effort string
		want   int
	}{{`"xhigh"`, 400}, {`"high"`, 200}} {
		body := `{"model":"m","output_config":{"effort":` + tc.effort + `},"messages":[{"role":"user","content":"a"}]}`
		if got := post(s, "/v1/chat/completions", body).Code; got != tc.want {
			t.Errorf("effort %s: %d, want %d", tc.effort, got, tc.want)
		}
	}
}
