package anthropic_test

import (
	"encoding/json"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

// TestDisplayBranchDiscardsToolAuthority is hermes-semantics §7 group J
// (59, 61): a branch seeded from the display projection (no tool calls, no
// tool results) replays no tool_use from the ordered carrier, after a
// restart as well; it keeps its reasoning_details and readable reasoning
// in storage, and the parent is unchanged.
func TestDisplayBranchDiscardsToolAuthority(t *testing.T) {
	tbl := enginetest.Table(t)
	parent := loopHistory(t)
	parent.Messages[3].ReasoningDetails = []json.RawMessage{engine.NewRecord(engine.NativeValues{ReasoningOpaque: "OPAQUE"})}
	before := snapshot(t, parent)
	b := engine.Branch(parent, "display")
	var kept []engine.Message
	for _, m := range b.Messages {
		if m.Role == "tool" {
			continue
		}
		m.ToolCalls = nil
		kept = append(kept, m)
	}
	b.Messages = append(kept, enginetest.User("continue"))
	for _, s := range []*engine.Session{b, resume(t, b)} {
		body := string(shape(t, tbl, s, direct, opus))
		if strings.Contains(body, "tool_use") || strings.Contains(body, "tool_result") {
			t.Errorf("the branch replayed native tool authority: %s", body)
		}
		if !strings.Contains(body, `"text":"4"`) {
			t.Errorf("visible text lost: %s", body)
		}
		m := s.Messages[3]
		if m.ReasoningContent == nil || *m.ReasoningContent != "loop one" || len(m.ReasoningDetails) != 1 || m.Native == nil {
			t.Errorf("the branch lost stored reasoning: %+v", m)
		}
	}
	if snapshot(t, parent) != before {
		t.Error("the parent history changed")
	}
}
