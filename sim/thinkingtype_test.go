package sim

import (
	"testing"

	"github.com/replaycheck/replaycheck/providers"
)

// TestThinkingTypeRefusals: the committed Z.ai and Moonshot profiles
// refuse a thinking.type they do not take, by the rule for the model:
// Kimi K2.7 Code takes only "enabled", K2.6 and GLM also "disabled".
func TestThinkingTypeRefusals(t *testing.T) {
	list, err := providers.LoadDir("../providers")
	if err != nil {
		t.Fatal(err)
	}
	byName := providers.ByName(list)
	for _, tc := range []struct {
		profile, model, typ, rule string
		status                    int
	}{
		{"glm", "glm-5.3", "enabled", "", 200},
		{"glm", "glm-5.3", "enabled-changed", "thinking-type-invalid", 400},
		{"kimi", "kimi-k2.6", "disabled", "", 200},
		{"kimi", "kimi-k2.6", "enabled-changed", "thinking-type-invalid", 400},
		{"kimi", "kimi-k2.7-code", "disabled", "thinking-type-not-enabled", 400},
		{"kimi", "kimi-k2.7-code", "enabled", "", 200},
	} {
		s, err := New(byName[tc.profile], Options{Seed: testSeed})
		if err != nil {
			t.Fatal(err)
		}
		body := `{"model":"` + tc.model + `","thinking":{"type":"` + tc.typ + `"},"messages":[{"role":"user","content":"hi"}]}`
		rec := post(s, "/v1/chat/completions", body)
		if rec.Code != tc.status || rec.Header().Get(RuleHeader) != tc.rule {
			t.Errorf("%s %s thinking.type %s: %d by rule %q, want %d by %q (%.120s)", tc.profile, tc.model, tc.typ, rec.Code, rec.Header().Get(RuleHeader), tc.status, tc.rule, rec.Body)
		}
	}
}
