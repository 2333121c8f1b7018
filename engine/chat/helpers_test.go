package chat_test

import (
	"encoding/json"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// storedTurn is the research notes' example turn: every standard carrier
// and a Gemini per-call signature.
func storedTurn() engine.Message {
	return engine.Message{
		Role:             "assistant",
		Content:          raw(`""`),
		Reasoning:        engine.Str("thought"),
		ReasoningContent: engine.Str("thought"),
		ReasoningDetails: []json.RawMessage{raw(`{"type":"reasoning.text","text":"thought"}`)},
		ToolCalls: []engine.ToolCall{{
			ID: "call_1", Type: "function",
			Function:     engine.FunctionCall{Name: "lookup", Arguments: `{"q":"x"}`},
			ExtraContent: raw(`{"google":{"thought_signature":"sig"}}`),
		}},
	}
}

// bareTurn is an assistant tool-call turn without any reasoning.
func bareTurn() engine.Message {
	return engine.Message{
		Role:      "assistant",
		Content:   raw(`null`),
		ToolCalls: []engine.ToolCall{{ID: "call_2", Type: "function", Function: engine.FunctionCall{Name: "lookup", Arguments: `{}`}}},
	}
}

func history(turns ...engine.Message) []engine.Message {
	msgs := []engine.Message{{Role: "user", Content: raw(`"go"`)}}
	for i, m := range turns {
		msgs = append(msgs, m)
		msgs = append(msgs, engine.Message{Role: "tool", ToolCallID: m.ToolCalls[0].ID, Content: raw(`"result"`)})
		_ = i
	}
	return msgs
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
