package store

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
)

// Opaque carriers of the fixture: made-up base64 of the shapes providers
// send (signatures, encrypted and redacted data, thought signatures).
const (
	sigAnthropic  = "EqQBCkYIBhgCIkD7mWq3xZb0lJ5r1hQm9aT2pV8cN4eK6uY0oS3dF7gH1jL2kM5nB8vC9xZ1aQ2wE3rT4yU5iO6pA7sD8fG9hJ0k=="
	sigForeign    = "ErcBCkgIBxABGAIqQHpL0vN9cB8xM7zK6jH5gF4dS3aQ2wE1rT0yU9iO8pA7sD6fG5hJ4kL3zX2cV1bN0mQ9wE8rT7yU6iO5pA4sD3f="
	encryptedBlob = "gAAAAABo_9Kc3vQ1nZr8mYtXwV2uS7pO4lK1jH6gF3dS9aQ0wE5rT8yU2iO7pA4sD1fG6hJ3kL0zX9cV5bN2mQ8wE4rT1yU7iO3pA0s"
	redactedBlob  = "EmwKAhgBEgwQ8vJ2kX5nL9pR3sT1Gix7yQ4wE2rT6yU0iO9pA3sD7fG1hJ5kL8zX4cV2bN6mQ0wE9rT3yU7iO1pA5sD8fG2hJ6kL9z"
	thoughtSig    = "CiQB0e2Kb9ZtXq3mY7pL1sV8cN4eK6uY0oS3dF7gH1jL2kM5nB8vC9xZ1aQ2wE3rT4yU5iO6pA7sD8fG9hJ0kLzXcVbNmQwErTy="
	callThought   = "CiwB0e2Kb4XwYz7Lm1Qp9Rt3Uv5Wx8Ya2Bc4De6Fg0Hi2Jk4Lm6No8Pq0Rs2Tu4Vw6Xy8Za0Bc2De4Fg6Hi8Jk0Lm2No4Pq6Rs8=="
	copilotOpaque = "cp_opaque_v1.Zm9vYmFyYmF6cXV4LWNvcGlsb3Qtb3BhcXVlLXN0YXRlLWZvci10aGUtbmV4dC10dXJuLTAwMDEyMzQ1Njc4OQ"
	copilotCall   = "cp_callsig.QmFzZTY0U2lnbmF0dXJlRm9yVG9vbENhbGwtMDAwMQ"
)

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// richSession is a session holding every kind of carrier the store must
// keep: RC, R, RD items with signed and encrypted content, a private
// record, native blocks, tool-call extra_content and thought signatures,
// live Copilot fields, Extra keys, a legacy empty RC, and a model config
// with rejected carriers, signature fingerprints and sealed blobs.
func richSession(id string) *engine.Session {
	return &engine.Session{
		ID: id,
		Messages: []engine.Message{
			{Role: "system", Content: raw(`"You are a careful assistant. Use tools when a fact is missing."`)},
			{Role: "user", Content: raw(`"What is the weather in Lisbon, and should I take a coat?"`), Timestamp: "2026-05-01T10:00:00Z"},
			{
				Role:             "assistant",
				Content:          raw(`null`),
				ReasoningContent: engine.Str("The user wants Lisbon weather. I should call get_weather first."),
				ReasoningDetails: []json.RawMessage{
					raw(`{"type":"reasoning.text","text":"The user wants Lisbon weather.","signature":"` + sigAnthropic + `","format":"anthropic-claude-v1","index":0}`),
					raw(`{"type":"reasoning.encrypted","data":"` + encryptedBlob + `","id":"rs_01","format":"openai-responses-v1","index":1}`),
					engine.NewRecord(engine.NativeValues{ThoughtSignature: thoughtSig, ReasoningOpaque: copilotOpaque, ReasoningText: "plan: call the weather tool"}),
				},
				ToolCalls: []engine.ToolCall{
					{
						ID: "call_1", Type: "function",
						Function:     engine.FunctionCall{Name: "get_weather", Arguments: `{"city":"Lisbon"}`, ThoughtSignature: copilotCall},
						ExtraContent: raw(`{"google":{"thought_signature":"` + callThought + `"}}`),
						CallID:       "fc_1", ResponseItemID: "item_1",
					},
				},
				Timestamp: "2026-05-01T10:00:02Z",
				Extra: map[string]json.RawMessage{
					"_persisted":     raw(`true`),
					"provider_extra": raw(`{"cache":{"hit":false},"n":[1,2,3]}`),
				},
			},
			{Role: "tool", ToolCallID: "call_1", Name: "get_weather", Content: raw(`"{\"temp_c\":14,\"rain\":0.8}"`)},
			{
				Role:    "assistant",
				Content: raw(`[{"type":"text","text":"It is 14 °C with rain likely."}]`),
				ReasoningDetails: []json.RawMessage{
					raw(`{"type":"thinking","thinking":"Rain probability is high, recommend a coat.","signature":"` + sigForeign + `"}`),
					raw(`{"type":"redacted_thinking","data":"` + redactedBlob + `"}`),
				},
				Native: &engine.NativeTurn{Dialect: engine.ModeAnthropic, Blocks: []json.RawMessage{
					raw(`{"type":"thinking","thinking":"Rain probability is high, recommend a coat.","signature":"` + sigForeign + `"}`),
					raw(`{"type":"redacted_thinking","data":"` + redactedBlob + `"}`),
					raw(`{"type":"text","text":"It is 14 °C with rain likely."}`),
				}},
			},
			{Role: "user", Content: raw(`"Thanks. And tomorrow?"`)},
			{
				Role:            "assistant",
				Content:         raw(`"Tomorrow looks dry."`),
				Reasoning:       engine.Str("Forecast says dry; no tool needed."),
				ExtraContent:    engine.GoogleExtraContent(thoughtSig),
				ReasoningOpaque: engine.Str(copilotOpaque),
				ReasoningText:   engine.Str("Forecast says dry; no tool needed."),
			},
			{Role: "user", Content: raw(`"ok"`)},
			{Role: "assistant", Content: raw(`"Bye."`), ReasoningContent: engine.Str("")},
		},
		Config: engine.ModelConfig{
			RejectedCarriers: []engine.CarrierRejection{
				{RouteKey: engine.RouteKey{Provider: "mistral", Host: "api.mistral.ai", Model: "magistral-medium-latest"}, Carriers: []engine.Carrier{engine.ReasoningContent, engine.Reasoning}},
				{RouteKey: engine.RouteKey{Provider: "openrouter", Host: "openrouter.ai", Model: "z-ai/glm-5.3"}, Carriers: []engine.Carrier{engine.ReasoningDetails}},
			},
			RejectedSignatures: []string{"sha256:0f1e2d3c4b5a", "sha256:a1b2c3d4e5f6"},
			SealedBlobs:        []string{"sha256:99aa88bb77cc"},
		},
	}
}

// decisions are chat routes that read different parts of the history.
var decisions = []struct {
	name string
	d    engine.Decision
}{
	{"must-echo", engine.Decision{Route: engine.Route{Model: "deepseek-v4-flash"}, Pad: true, Carriers: engine.NewCarrierSet(engine.ReasoningContent)}},
	{"strict", engine.Decision{Route: engine.Route{Model: "magistral-medium-latest"}}},
	{"gateway", engine.Decision{Route: engine.Route{Model: "anthropic/claude-sonnet-4.5"}, Carriers: engine.NewCarrierSet(engine.AllCarriers...)}},
	{"gemini-openai", engine.Decision{Route: engine.Route{Model: "gemini-3-pro-preview"}, Carriers: engine.NewCarrierSet(engine.ReasoningContent), NativeFields: []string{engine.NativeGemini}}},
	{"copilot", engine.Decision{Route: engine.Route{Model: "claude-sonnet-4.5"}, Carriers: engine.NewCarrierSet(engine.ReasoningContent), NativeFields: []string{engine.NativeCopilot}}},
}

// longSession returns a session of n messages: user turns and assistant
// tool-call turns with signed reasoning_details and about size bytes of
// reasoning each.
func longSession(id string, n, size int) *engine.Session {
	s := &engine.Session{ID: id}
	text := strings.Repeat("thinking about the next step; ", size/30+1)[:size]
	for i := range n {
		switch i % 4 {
		case 0:
			s.Messages = append(s.Messages, engine.Message{Role: "user", Content: raw(fmt.Sprintf(`"question %d"`, i))})
		case 1:
			s.Messages = append(s.Messages, engine.Message{
				Role: "assistant", Content: raw(`null`), ReasoningContent: engine.Str(text),
				ReasoningDetails: []json.RawMessage{raw(`{"type":"reasoning.text","text":"` + text + `","signature":"` + sigAnthropic + `"}`)},
				ToolCalls:        []engine.ToolCall{{ID: fmt.Sprintf("call_%d", i), Type: "function", Function: engine.FunctionCall{Name: "lookup", Arguments: `{"q":"x"}`}}},
			})
		case 2:
			s.Messages = append(s.Messages, engine.Message{Role: "tool", ToolCallID: fmt.Sprintf("call_%d", i-1), Content: raw(`"result"`)})
		default:
			s.Messages = append(s.Messages, engine.Message{Role: "assistant", Content: raw(`"answer"`), ReasoningContent: engine.Str(text)})
		}
	}
	return s
}
