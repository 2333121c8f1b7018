package scenario

import (
	"context"
	"encoding/json"

	"github.com/replaycheck/replaycheck/engine"
)

// questions are the user turns of the scripts; each yields its own memo.
var questions = []string{
	"Why does the cache test fail intermittently?",
	"Which fix should we ship first?",
	"Does the fix hold under load?",
	"What did we conclude?",
}

// toolCall opens a tool loop: the question, the model's tool call (its
// request must be accepted as sent), and the tool result.
func toolCall(ctx context.Context, c *Conv, question string) (engine.TurnResult, error) {
	c.User(question)
	call, err := c.Turn(ctx, false)
	if err := accepted("the tool-call turn", call, err); err != nil {
		return call, err
	}
	return call, c.ToolResult("The cache TTL is 0 in CI.")
}

// toolLoop runs one user turn: the question, the model's tool call, the
// tool result, and the model's answer. Both requests must be accepted as
// sent.
func toolLoop(ctx context.Context, c *Conv, question string) (answer engine.TurnResult, err error) {
	if call, err := toolCall(ctx, c, question); err != nil {
		return call, err
	}
	answer, err = c.Turn(ctx, false)
	return answer, accepted("the answer turn (replays the tool-call turn's reasoning)", answer, err)
}

// foreignTurn is an assistant tool-call turn stored from another provider,
// holding every standard carrier.
func foreignTurn() engine.Message {
	text := "Earlier reasoning from another provider: the TTL looks wrong."
	return engine.Message{
		Role: "assistant", Content: json.RawMessage(`null`),
		ReasoningContent: engine.Str(text), Reasoning: engine.Str(text),
		ReasoningDetails: []json.RawMessage{json.RawMessage(`{"type":"reasoning.text","text":` + string(engine.AppendQuoted(nil, text)) + `}`)},
		ToolCalls:        []engine.ToolCall{{ID: "call_prior", Type: "function", Function: engine.FunctionCall{Name: "lookup", Arguments: `{"q":"ttl"}`}}},
	}
}

// bareTurn is an assistant tool-call turn without any reasoning (history
// from a model that did not think).
func bareTurn() engine.Message {
	return engine.Message{
		Role: "assistant", Content: json.RawMessage(`null`),
		ToolCalls: []engine.ToolCall{{ID: "call_bare", Type: "function", Function: engine.FunctionCall{Name: "lookup", Arguments: `{"q":"notes"}`}}},
	}
}
