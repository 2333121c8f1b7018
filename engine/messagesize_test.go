package engine

import (
	"encoding/json"
	"testing"

	"github.com/replaycheck/replaycheck/internal/longsession"
)

// TestMarshalJSONAllocatesOnce: the storage JSON of a message, prose with
// escapes included, is written into one allocation.
func TestMarshalJSONAllocatesOnce(t *testing.T) {
	sess, err := ParseSession(longsession.Generate(3, 10<<10))
	if err != nil {
		t.Fatal(err)
	}
	msgs := append(sess.Messages,
		Message{
			Role: "assistant", Content: json.RawMessage(`[{"type":"text","text":"hi"}]`),
			ReasoningText: Str("a \"quoted\"\nline"), ReasoningOpaque: Str("opaque"),
			ToolCalls: []ToolCall{{ID: "c1", Type: "function", Function: FunctionCall{Name: "f", Arguments: `{"q":"\"x\"\n"}`, ThoughtSignature: "sig"}, ExtraContent: json.RawMessage(`{"google":{}}`), CallID: "fc", ResponseItemID: "it"}},
			Native:    &NativeTurn{Dialect: ModeAnthropic, Blocks: []json.RawMessage{json.RawMessage(`{"type":"text","text":"hi"}`)}, Issuer: &RouteKey{Provider: "p", Host: "h", Model: "m"}},
			Timestamp: "2026-05-01T10:00:00Z",
		},
		Message{Role: "user", Content: json.RawMessage(`"x"`), Extra: map[string]json.RawMessage{"_persisted": json.RawMessage(`true`), "k": json.RawMessage(`{"a":[1,2]}`)}},
	)
	for i, m := range msgs {
		if got := testing.AllocsPerRun(10, func() { m.MarshalJSON() }); got != 1 {
			b, _ := m.MarshalJSON()
			t.Errorf("message %d (%d bytes, hint %d): MarshalJSON allocates %.0f times, want 1", i, len(b), m.storedSizeHint(), got)
		}
	}
}
