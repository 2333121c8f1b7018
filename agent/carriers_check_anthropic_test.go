package agent

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
)

// TestCheckCarriersHoldsAnAnthropicTurnToItsThinking holds an accepted
// Anthropic tool-result request on a route that reads thinking back
// (MiniMax's refuses nothing) to carrying a thinking block, not the " "
// pad, as the chat check holds a chat turn to its carrier: without one the
// model reasons again from scratch, an undeclared advisory that fails. A
// route that reads no thinking is not held to it.
func TestCheckCarriersHoldsAnAnthropicTurnToItsThinking(t *testing.T) {
	body := func(blocks string) []byte {
		return []byte(`{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":[` + blocks +
			`{"type":"tool_use","id":"toolu_1","name":"read_file","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"y"}]}]}`)
	}
	reads := &providers.Profile{Name: "minimax-anthropic", Reads: []string{"thinking"}}
	reads.Emits.Fields = []string{"thinking"}
	deaf := &providers.Profile{Name: "deaf", Emits: reads.Emits}
	for _, c := range []struct {
		profile *providers.Profile
		blocks  string
		fail    bool
	}{
		{reads, `{"type":"thinking","thinking":"t","signature":"s"},`, false},
		{reads, `{"type":"redacted_thinking","data":"ZW5j"},`, false},
		{reads, ``, true},
		{reads, `{"type":"thinking","thinking":" "},`, true},
		{deaf, ``, false},
	} {
		j := &judgement{
			target:  matrix.Target{Route: engine.Route{APIMode: "anthropic"}},
			profile: c.profile,
			call:    &Exchange{ToolCall: "toolu_1"},
			judged:  []Exchange{{Index: 1, Body: body(c.blocks)}},
		}
		v := checkCarriers(j)
		if got := v.status == report.StatusFail; got != c.fail {
			t.Errorf("%s %q: fail %v, want %v: %s", c.profile.Name, c.blocks, got, c.fail, v.detail)
		}
		if c.fail && !strings.Contains(v.detail, "reads thinking back") {
			t.Errorf("the fail does not name what the provider reads: %s", v.detail)
		}
	}
}
