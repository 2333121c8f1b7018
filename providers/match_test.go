package providers

import "testing"

func TestConditionAppliesTo(t *testing.T) {
	tests := []struct {
		reason string
		c      Condition
		model  string
		want   bool
	}{
		{"no restriction applies to every model", Condition{}, "anything", true},
		{"models match a substring of the lower-cased id", Condition{Models: []string{"gemini-3"}}, "Google/Gemini-3-Pro-Preview", true},
		{"a model outside the list is exempt", Condition{Models: []string{"gemini-3"}}, "gemini-2.5-pro", false},
		{"except_models exempts a match", Condition{ExceptModels: []string{"gpt-oss"}}, "openai/gpt-oss-120b", false},
		{"except_models leaves others in", Condition{ExceptModels: []string{"gpt-oss"}}, "llama-3.3-70b-versatile", true},
		{"except_models wins over models", Condition{Models: []string{"gpt-4"}, ExceptModels: []string{"gpt-4o"}}, "gpt-4o-mini", false},
		{"models and except_models together", Condition{Models: []string{"gpt-4"}, ExceptModels: []string{"gpt-4o"}}, "gpt-4-turbo", true},
		{"an empty substring matches nothing", Condition{Models: []string{""}}, "gpt-4", false},
	}
	for _, tc := range tests {
		t.Run(tc.reason, func(t *testing.T) {
			if got := tc.c.AppliesTo(tc.model); got != tc.want {
				t.Errorf("AppliesTo(%q) = %v, want %v", tc.model, got, tc.want)
			}
		})
	}
}

func TestFlagAppliesTo(t *testing.T) {
	f := Flag{Models: []string{"qwen3.6-plus", "kimi-k2.6"}}
	for model, want := range map[string]bool{"qwen3.6-plus": true, "Moonshot/Kimi-K2.6": true, "qwen3.5-plus": false} {
		if got := f.AppliesTo(model); got != want {
			t.Errorf("AppliesTo(%q) = %v, want %v", model, got, want)
		}
	}
	if !(Flag{}).AppliesTo("any") {
		t.Errorf("a flag without models must apply to every model")
	}
}

func TestGroqReasoningRestriction(t *testing.T) {
	ps, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var groq *Profile
	for _, p := range ps {
		if p.Name == "groq" {
			groq = p
		}
	}
	if groq == nil {
		t.Fatal("no groq profile")
	}
	var r *Rule
	for i := range groq.Rules {
		if groq.Rules[i].When.Field == "reasoning" {
			r = &groq.Rules[i]
		}
	}
	if r == nil {
		t.Fatal("groq has no rule on reasoning")
	}
	if r.When.AppliesTo("openai/gpt-oss-120b") || !r.When.AppliesTo("llama-3.3-70b-versatile") {
		t.Errorf("groq reasoning rule must spare gpt-oss and refuse other models: %+v", r.When)
	}
}

// TestRuleHoldsOn checks the days a rule holds: from inclusive, until
// exclusive, and an unknown day meaning today.
func TestRuleHoldsOn(t *testing.T) {
	for _, tc := range []struct {
		rule Rule
		day  string
		want bool
	}{
		{Rule{}, "", true}, {Rule{}, "2020-01-01", true},
		{Rule{From: "2026-04-01"}, "2026-03-31", false}, {Rule{From: "2026-04-01"}, "2026-04-01", true},
		{Rule{Until: "2026-04-01"}, "2026-03-31", true}, {Rule{Until: "2026-04-01"}, "2026-04-01", false},
		{Rule{Until: "2026-04-01"}, "", false}, {Rule{From: "2026-04-01"}, "", true},
	} {
		if got := tc.rule.HoldsOn(tc.day); got != tc.want {
			t.Errorf("rule from %q until %q on %q: %v, want %v", tc.rule.From, tc.rule.Until, tc.day, got, tc.want)
		}
	}
}
