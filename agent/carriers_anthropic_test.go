package agent

import (
	"slices"
	"testing"
)

// TestCarriersOnNamesAnthropicThinkingAsSent holds the Anthropic reading
// of the tool-use turn to what the agent sent: a signed block, a block
// whose signature was dropped, the pad a DeepSeek or Kimi route takes
// (its value shown, as the chat pad's is), redacted thinking, or nothing;
// found by the tool_use id wherever the turn sits.
func TestCarriersOnNamesAnthropicThinkingAsSent(t *testing.T) {
	turn := func(blocks string) []byte {
		return []byte(`{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":[` + blocks +
			`{"type":"tool_use","id":"toolu_1","name":"read_file","input":{"path":"x"}}]},` +
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"y"}]}]}`)
	}
	for _, c := range []struct {
		blocks string
		want   []string
	}{
		{`{"type":"thinking","thinking":"t","signature":"c2lnbmVk"},`, []string{"thinking (signed)"}},
		{`{"type":"thinking","thinking":"t"},`, []string{"thinking (unsigned)"}},
		{`{"type":"thinking","thinking":"t","signature":""},`, []string{`thinking (signature "")`}},
		{`{"type":"thinking","thinking":" "},`, []string{`thinking " "`}},
		{`{"type":"redacted_thinking","data":"ZW5j"},{"type":"thinking","thinking":"t","signature":"c2ln"},`, []string{"redacted_thinking", "thinking (signed)"}},
		{``, nil},
	} {
		got, known := carriersOn("anthropic", turn(c.blocks), "toolu_1")
		if !known || !slices.Equal(got, c.want) {
			t.Errorf("%s: carriersOn = %q (read %v), want %q", c.blocks, got, known, c.want)
		}
	}
	if got, _ := carriersOn("anthropic", turn(`{"type":"thinking","thinking":"t","signature":"s"},`), "toolu_other"); got != nil {
		t.Errorf("another tool_use id: carriersOn = %q, want nothing", got)
	}
}
