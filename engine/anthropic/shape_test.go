package anthropic_test

import (
	"encoding/json"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/anthropic"
	"github.com/tidwall/gjson"
)

func TestPathAndRequestShape(t *testing.T) {
	tbl := enginetest.Table(t)
	s := &engine.Session{Messages: []engine.Message{
		{Role: "system", Content: json.RawMessage(`"Be brief."`)},
		enginetest.User("hi"),
	}}
	req := engine.Request{System: "You are a helper.", Stream: true, Tools: []engine.Tool{
		{Name: "weather", Description: "Weather by city", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)},
		{Name: "clock"},
	}}
	tools := `"tools":[{"name":"weather","description":"Weather by city","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}},{"name":"clock","input_schema":{"type":"object"}}]`
	tail := `"max_tokens":16000,"system":"You are a helper.\n\nBe brief.","messages":[{"role":"user","content":"hi"}],` + tools
	tests := []struct {
		name, baseURL, model string
		path, streamPath     string
		body                 string
		reason               string
	}{
		{"direct", "https://api.anthropic.com", "claude-opus-4-6", "/v1/messages", "/v1/messages",
			`{"model":"claude-opus-4-6",` + tail + `,"stream":true,"thinking":{"type":"enabled","budget_tokens":8000}}`,
			"the Messages API carries the model and stream in the body"},
		{"bedrock", "https://bedrock-runtime.us-east-1.amazonaws.com", "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
			"/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke", "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream",
			`{"anthropic_version":"bedrock-2023-05-31",` + tail + `,"thinking":{"type":"enabled","budget_tokens":8000}}`,
			"InvokeModel takes the model in the path, the endpoint decides streaming, and the body names the Bedrock version"},
		{"vertex", "https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models", "claude-opus-4-6@20260101",
			"/claude-opus-4-6@20260101:rawPredict", "/claude-opus-4-6@20260101:streamRawPredict",
			`{"anthropic_version":"vertex-2023-10-16",` + tail + `,"stream":true,"thinking":{"type":"enabled","budget_tokens":8000}}`,
			"rawPredict takes the model in the path and the Vertex version in the body"},
		{"foundry", "https://res.services.ai.azure.com/anthropic", "claude-opus-4-6", "/v1/messages", "/v1/messages",
			`{"model":"claude-opus-4-6",` + tail + `,"stream":true,"thinking":{"type":"enabled","budget_tokens":8000}}`,
			"Foundry speaks the Messages API under /anthropic"},
		{"vertex-lookalike", "https://us-east5-aiplatform.googleapis.com.evil.test/v1/publishers/anthropic/models", "claude-opus-4-6", "/v1/messages", "/v1/messages",
			`{"model":"claude-opus-4-6",` + tail + `,"stream":true,"thinking":{"type":"enabled","budget_tokens":8000}}`,
			"a look-alike Vertex host is no Vertex platform"},
		{"direct-adaptive", "https://api.anthropic.com", "claude-opus-4-7", "/v1/messages", "/v1/messages",
			`{"model":"claude-opus-4-7",` + tail + `,"stream":true,"thinking":{"type":"adaptive","display":"summarized"}}`,
			"Opus 4.7 refuses a thinking budget (microsoft/vscode#311862): it gets adaptive thinking with its text summarized"},
		{"bedrock-adaptive", "https://bedrock-runtime.us-east-1.amazonaws.com", "us.anthropic.claude-opus-4-7-v1:0",
			"/model/us.anthropic.claude-opus-4-7-v1%3A0/invoke", "/model/us.anthropic.claude-opus-4-7-v1%3A0/invoke-with-response-stream",
			`{"anthropic_version":"bedrock-2023-05-31",` + tail + `,"thinking":{"type":"adaptive","display":"summarized"}}`,
			"the model decides, not the platform: Opus 4.7 on InvokeModel is adaptive too"},
		{"vertex-adaptive", "https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models", "claude-fable-5@20260609",
			"/claude-fable-5@20260609:rawPredict", "/claude-fable-5@20260609:streamRawPredict",
			`{"anthropic_version":"vertex-2023-10-16",` + tail + `,"stream":true,"thinking":{"type":"adaptive","display":"summarized"}}`,
			"every Fable id is adaptive"},
		{"unknown-relay-adaptive", "https://relay.example.com", "claude-mythos-preview", "/v1/messages", "/v1/messages",
			`{"model":"claude-mythos-preview",` + tail + `,"stream":true,"thinking":{"type":"adaptive","display":"summarized"}}`,
			"a relay gets no replayed thinking, but its thinking request still follows the model"},
	}
	for _, tc := range tests {
		dl := anthropic.Dialect{Table: tbl}
		r := engine.Route{APIMode: engine.ModeAnthropic, BaseURL: tc.baseURL, Model: tc.model}
		if p := dl.Path(r, false); p != tc.path {
			t.Errorf("%s: path %q, want %q", tc.name, p, tc.path)
		}
		if p := dl.Path(r, true); p != tc.streamPath {
			t.Errorf("%s: stream path %q, want %q", tc.name, p, tc.streamPath)
		}
		body, err := dl.Shape(s, tbl.Decide(r, 0), req)
		if err != nil {
			t.Fatal(err)
		}
		if string(body) != tc.body {
			t.Errorf("%s: %s\n got: %s\nwant: %s", tc.name, tc.reason, body, tc.body)
		}
		again, _ := dl.Shape(s, tbl.Decide(r, 0), req)
		if string(again) != string(body) {
			t.Errorf("%s: two shapes of the same session differ", tc.name)
		}
	}
}

func TestShapeMessages(t *testing.T) {
	tbl := enginetest.Table(t)
	direct := "https://api.anthropic.com"
	tests := []struct {
		name, baseURL, model string
		hist                 []engine.Message
		pad                  bool
		want                 string // the messages array
		reason               string
	}{
		{"tool-results-merge", direct, "claude-opus-4-6", []engine.Message{
			enginetest.User("go"),
			capture(t, `{"content":[{"type":"tool_use","id":"a","name":"f","input":{}},{"type":"tool_use","id":"b","name":"g","input":{"x":1}}]}`),
			enginetest.ToolResult("a", "A"), enginetest.ToolResult("b", "B"),
		}, false,
			`[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"f","input":{}},{"type":"tool_use","id":"b","name":"g","input":{"x":1}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"A"},{"type":"tool_result","tool_use_id":"b","content":"B"}]}]`,
			"parallel tool results go back in one user message"},
		{"orphan-tool-use", direct, "claude-opus-4-6", []engine.Message{
			enginetest.User("go"),
			capture(t, `{"content":[{"type":"text","text":"calling"},{"type":"tool_use","id":"a","name":"f","input":{}},{"type":"tool_use","id":"b","name":"g","input":{}}]}`),
			enginetest.ToolResult("a", "A"), enginetest.User("next"),
		}, false,
			`[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"text","text":"calling"},{"type":"tool_use","id":"a","name":"f","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"A"},{"type":"text","text":"next"}]}]`,
			"a tool_use whose result the history lacks is not sent"},
		{"orphan-tool-result", direct, "claude-opus-4-6", []engine.Message{
			enginetest.User("go"), enginetest.ToolResult("zzz", "stray"), enginetest.User("more"),
		}, false,
			`[{"role":"user","content":[{"type":"text","text":"go"},{"type":"text","text":"more"}]}]`,
			"a tool result without its tool_use is not sent"},
		{"pad-deepseek", "https://api.deepseek.com/anthropic", "deepseek-v4-pro", []engine.Message{
			enginetest.User("go"), {Role: "assistant", Content: json.RawMessage(`"hello"`)}, enginetest.User("next"),
		}, true,
			`[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"thinking","thinking":" "},{"type":"text","text":"hello"}]},{"role":"user","content":"next"}]`,
			"a must-echo Anthropic-compatible endpoint gets a pad thinking block, never an empty one"},
		{"no-pad-signed", direct, "claude-opus-4-6", []engine.Message{
			enginetest.User("go"), {Role: "assistant", Content: json.RawMessage(`"hello"`)}, enginetest.User("next"),
		}, true,
			`[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"text","text":"hello"}]},{"role":"user","content":"next"}]`,
			"a signed route never gets an unsigned pad block"},
		{"unsigned-from-rc", "https://api.kimi.com/coding", "kimi-k2.5", []engine.Message{
			enginetest.User("go"), {Role: "assistant", Content: json.RawMessage(`"hi"`), ReasoningContent: engine.Str("chat-captured thought")}, enginetest.User("next"),
		}, false,
			`[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"thinking","thinking":"chat-captured thought"},{"type":"text","text":"hi"}]},{"role":"user","content":"next"}]`,
			"an unsigned route reads the readable reasoning of a turn captured elsewhere"},
		{"signed-ignores-rc", direct, "claude-opus-4-6", []engine.Message{
			enginetest.User("go"), {Role: "assistant", Content: json.RawMessage(`"hi"`), ReasoningContent: engine.Str("chat-captured thought")}, enginetest.User("next"),
		}, false,
			`[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"text","text":"hi"}]},{"role":"user","content":"next"}]`,
			"unsigned reasoning never goes to a route that verifies signatures"},
		{"rd-thinking-items", "https://bedrock-runtime.us-east-1.amazonaws.com", "us.anthropic.claude-opus-4-6-v1:0", []engine.Message{
			enginetest.User("go"), {Role: "assistant", Content: json.RawMessage(`"hi"`), ReasoningContent: engine.Str("t"),
				ReasoningDetails: []json.RawMessage{json.RawMessage(`{"type":"thinking","thinking":"t","signature":"S1"}`), json.RawMessage(`{"type":"redacted_thinking","data":"R1"}`), engine.NewRecord(engine.NativeValues{ThoughtSignature: "G"})}},
			enginetest.User("next"),
		}, false,
			`[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"S1"},{"type":"redacted_thinking","data":"R1"},{"type":"text","text":"hi"}]},{"role":"user","content":"next"}]`,
			"Anthropic-format reasoning_details items (a Converse capture) replay in order; the private record never does"},
		{"empty-assistant-dropped", direct, "claude-opus-4-6", []engine.Message{
			enginetest.User("go"), {Role: "assistant", Content: json.RawMessage(`""`)}, enginetest.User("next"),
		}, false,
			`[{"role":"user","content":"go"},{"role":"user","content":"next"}]`,
			"an assistant message with no block is not sent"},
	}
	for _, tc := range tests {
		s := &engine.Session{Messages: tc.hist}
		before := snapshot(t, s)
		d := tbl.Decide(engine.Route{APIMode: engine.ModeAnthropic, BaseURL: tc.baseURL, Model: tc.model}, 0)
		d.Pad = tc.pad
		body, err := anthropic.Dialect{Table: tbl}.Shape(s, d, engine.Request{})
		if err != nil {
			t.Fatal(err)
		}
		if got := gjson.GetBytes(body, "messages").Raw; got != tc.want {
			t.Errorf("%s: %s\n got: %s\nwant: %s", tc.name, tc.reason, got, tc.want)
		}
		if snapshot(t, s) != before {
			t.Errorf("%s: shaping changed the stored history", tc.name)
		}
	}
}

func TestShapeRejectsBadArguments(t *testing.T) {
	s := &engine.Session{Messages: []engine.Message{
		enginetest.User("go"),
		{Role: "assistant", Content: json.RawMessage("null"), ToolCalls: []engine.ToolCall{{ID: "a", Function: engine.FunctionCall{Name: "f", Arguments: "[1,2"}}}},
		enginetest.ToolResult("a", "x"),
	}}
	_, err := anthropic.Dialect{}.Shape(s, engine.Decision{}, engine.Request{})
	if err == nil || !strings.Contains(err.Error(), "messages.1: tool_calls.0: arguments are not a JSON object") {
		t.Errorf("error %v, want one naming messages.1 tool_calls.0", err)
	}
}

func TestCarried(t *testing.T) {
	tests := []struct {
		body   string
		want   []string
		reason string
	}{
		{`{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"a","signature":"s"},{"type":"redacted_thinking","data":"d"}]}]}`, []string{"thinking", "signature", "redacted_thinking"}, "every kind present"},
		{`{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":" "}]}]}`, []string{"thinking"}, "an unsigned pad block is thinking without signature"},
		{`{"messages":[{"role":"user","content":[{"type":"thinking","thinking":"x","signature":"s"}]}]}`, []string{}, "only assistant messages count"},
	}
	for _, tc := range tests {
		if got := (anthropic.Dialect{}).Carried([]byte(tc.body)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.reason, got, tc.want)
		}
	}
}
