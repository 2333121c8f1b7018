package engine_test

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
)

// TestPriorThinkingWhy checks that the reasons agree with the verdicts
// they explain, and name the table entry in play.
func TestPriorThinkingWhy(t *testing.T) {
	p := enginetest.Table(t).Dialects.Anthropic
	for _, tc := range []struct {
		baseURL, model, why string
		keeps               bool
	}{
		{"https://api.anthropic.com", "claude-opus-4-6", "route class anthropic-direct follows the model's capability: claude-opus-4-6 is opus 4.6, and opus keeps_from is 4.5", true},
		{"https://api.anthropic.com", "claude-sonnet-4-5", "sonnet 4.5, and sonnet keeps_from is 4.6: it does not keep", false},
		{"https://api.anthropic.com", "claude-3-7-sonnet-20250219", "a generation that never keeps it (never_generations 3)", false},
		{"https://api.anthropic.com", "claude-next", "whose family and version do not parse", true},
		{"https://api.deepseek.com/anthropic", "deepseek-v4-flash", "route class deepseek replays earlier turns' thinking to every model", true},
		{"https://relay.example/v1", "claude-opus-4-6", "no route class matches: an unknown relay gets no thinking", false},
	} {
		d, why := p.Why(tc.baseURL, tc.model)
		if d.PriorThinking != tc.keeps || d != p.Decide(tc.baseURL, tc.model) || !strings.Contains(why, tc.why) {
			t.Errorf("%s %s: prior thinking %v because %q; want %v because %q", tc.baseURL, tc.model, d.PriorThinking, why, tc.keeps, tc.why)
		}
		if keeps, _ := p.PriorThinking.Why(tc.model); keeps != p.PriorThinking.Keeps(tc.model) {
			t.Errorf("%s: Why says %v, Keeps %v", tc.model, keeps, !keeps)
		}
	}
}
