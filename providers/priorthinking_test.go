package providers

import (
	"strings"
	"testing"
)

// TestPriorThinkingDeclaration: which models keep only the last turn's
// thinking is declared on anthropic profiles only, with models, a source
// and the note a partial confidence needs; a bad declaration is named.
func TestPriorThinkingDeclaration(t *testing.T) {
	anthropic := strings.Replace(strings.Replace(baseProfile, "api_mode: chat", "api_mode: anthropic", 1), "reasoning_content]", "thinking]", 2)
	anthropic = strings.Replace(anthropic, "field: reasoning_content\n", "field: thinking\n", 1)
	anthropic = strings.Replace(anthropic, "  scheme: encrypted-details\n  fields: [reasoning_details]", "  scheme: thinking-signature\n  fields: [thinking.signature]", 1)
	const decl = "prior_thinking:\n  last_turn_only: [claude-sonnet-4-5]\n  source: https://example.com/thinking\n  confidence: confirmed\n"
	tests := []struct {
		reason, text, want string
	}{
		{"a declared model keeps only the last turn", anthropic + decl, ""},
		{"a chat profile declares nothing about it", baseProfile + decl, "only anthropic profiles declare it"},
		{"no model", anthropic + strings.Replace(decl, "[claude-sonnet-4-5]", "[]", 1), "last_turn_only needs at least one model"},
		{"an upper-case id", anthropic + strings.Replace(decl, "claude-sonnet-4-5", "Claude-Sonnet-4-5", 1), `model "Claude-Sonnet-4-5" is not a lower-case id substring`},
		{"no source", anthropic + strings.Replace(decl, "  source: https://example.com/thinking\n", "", 1), "prior_thinking: source is required"},
		{"partial with no note", anthropic + strings.Replace(decl, "confirmed\n", "partial\n", 1), "confidence partial needs a note"},
	}
	for _, tc := range tests {
		p, err := Parse(negFile, []byte(tc.text))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.reason, err)
		case tc.want == "" && !(p.KeepsOnlyLastTurnThinking("us.anthropic.claude-sonnet-4-5-20250929-v1:0") && !p.KeepsOnlyLastTurnThinking("claude-sonnet-4-6")):
			t.Errorf("%s: sonnet 4.5 keeps only the last turn, 4.6 keeps all: got %v, %v", tc.reason,
				p.KeepsOnlyLastTurnThinking("us.anthropic.claude-sonnet-4-5-20250929-v1:0"), p.KeepsOnlyLastTurnThinking("claude-sonnet-4-6"))
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one containing %q", tc.reason, err, tc.want)
		}
	}
	var none *Profile
	if none.KeepsOnlyLastTurnThinking("claude-sonnet-4-5") {
		t.Error("no profile documents nothing, yet it answered true")
	}
}
