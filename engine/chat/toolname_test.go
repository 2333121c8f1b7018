package chat_test

import (
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"github.com/tidwall/gjson"
)

// TestToolResultKeepsItsName is the decision recorded in
// docs/decisions.md ("Tool results keep name"): a tool result passes
// through untouched (SPEC §3.1), its name included, on every chat route —
// the default, a gateway, a strict schema and Google's OpenAI-compatible
// endpoint, which reads it.
func TestToolResultKeepsItsName(t *testing.T) {
	table := enginetest.Table(t)
	result := enginetest.ToolResult("call_1", "sunny")
	result.Name = "weather"
	msgs := []engine.Message{enginetest.User("weather?"), {Role: "assistant", Content: []byte("null"), ToolCalls: []engine.ToolCall{
		{ID: "call_1", Type: "function", Function: engine.FunctionCall{Name: "weather", Arguments: "{}"}}}}, result}
	for _, r := range []engine.Route{
		{APIMode: engine.ModeChat, Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-5.1"},
		{APIMode: engine.ModeChat, Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "anthropic/claude-sonnet-4.5"},
		{APIMode: engine.ModeChat, Provider: "mistral", BaseURL: "https://api.mistral.ai/v1", Model: "magistral-medium-latest"},
		{APIMode: engine.ModeChat, Provider: "gemini", BaseURL: "https://generativelanguage.googleapis.com/v1beta/openai", Model: "gemini-3-pro-preview"},
	} {
		body := shape(t, table, r, 0, msgs)
		if got := gjson.Get(body, "messages.2.name").Str; got != "weather" {
			t.Errorf("%s: the tool result's name is %q on the wire, want weather: %s", r.BaseURL, got, body)
		}
	}
}
