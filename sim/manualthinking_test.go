package sim

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/providers"
)

// TestManualThinkingRefusals: the committed Anthropic profile refuses a
// thinking budget from the models that take only adaptive thinking, with
// the API's own words, and takes it from the models before them, which in
// turn refuse adaptive thinking before the 4.6 generation.
func TestManualThinkingRefusals(t *testing.T) {
	list, err := providers.LoadDir("../providers")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(providers.ByName(list)["anthropic"], Options{Seed: testSeed})
	if err != nil {
		t.Fatal(err)
	}
	const budget, adaptive = `{"type":"enabled","budget_tokens":8000}`, `{"type":"adaptive","display":"summarized"}`
	for _, tc := range []struct {
		model, thinking, rule string
		status                int
	}{
		{"claude-opus-4-7", budget, "manual-thinking-unsupported", 400},
		{"claude-opus-4-7", adaptive, "", 200},
		{"claude-opus-4-7", `{"type":"disabled"}`, "", 200},
		{"claude-fable-5", budget, "manual-thinking-unsupported-newer", 400},
		{"claude-mythos-preview", budget, "manual-thinking-unsupported-newer", 400},
		{"claude-opus-4-6", budget, "", 200},
		{"claude-sonnet-4-5", budget, "", 200},
		{"claude-sonnet-4-5", adaptive, "adaptive-thinking-unsupported", 400},
		{"claude-haiku-4-5", adaptive, "adaptive-thinking-unsupported", 400},
		{"claude-opus-4-6", adaptive, "", 200},
	} {
		body := `{"model":"` + tc.model + `","max_tokens":16000,"messages":[{"role":"user","content":"hi"}],"thinking":` + tc.thinking + `}`
		rec := post(s, "/v1/messages", body)
		if rec.Code != tc.status || rec.Header().Get(RuleHeader) != tc.rule {
			t.Errorf("%s thinking %s: %d by rule %q, want %d by %q (%.160s)", tc.model, tc.thinking, rec.Code, rec.Header().Get(RuleHeader), tc.status, tc.rule, rec.Body)
		}
		if tc.thinking == budget && tc.status == 400 && !strings.Contains(rec.Body.String(), `\"thinking.type.enabled\" is not supported for this model.`) {
			t.Errorf("%s: the refusal does not quote the API: %s", tc.model, rec.Body)
		}
	}
}
