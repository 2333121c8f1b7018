package engine_test

import (
	"encoding/json"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

// TestTurnMatches checks when native blocks still describe a visible turn.
func TestTurnMatches(t *testing.T) {
	call := func(id, name string) engine.ToolCall {
		return engine.ToolCall{ID: id, Type: "function", Function: engine.FunctionCall{Name: name, Arguments: "{}"}}
	}
	ref := func(id, name string) engine.ToolCall {
		return engine.ToolCall{ID: id, Function: engine.FunctionCall{Name: name}}
	}
	for _, tc := range []struct {
		reason  string
		content string
		msgCall []engine.ToolCall
		texts   []string
		calls   []engine.ToolCall
		want    bool
	}{
		{"texts joined with a newline equal the content", `"a\nb"`, nil, []string{"a", "b"}, nil, true},
		{"changed text does not match", `"a\nc"`, nil, []string{"a", "b"}, nil, false},
		{"null content matches no texts", `null`, []engine.ToolCall{call("1", "f")}, nil, []engine.ToolCall{ref("1", "f")}, true},
		{"null content does not match a text", `null`, nil, []string{"a"}, nil, false},
		{"array content never matches", `[{"type":"text","text":"a"}]`, nil, []string{"a"}, nil, false},
		{"a renamed call does not match", `""`, []engine.ToolCall{call("1", "g")}, nil, []engine.ToolCall{ref("1", "f")}, false},
		{"a call with another id does not match", `""`, []engine.ToolCall{call("2", "f")}, nil, []engine.ToolCall{ref("1", "f")}, false},
		{"a dropped call does not match", `""`, nil, nil, []engine.ToolCall{ref("1", "f")}, false},
		{"calls in order with the empty text match", `""`, []engine.ToolCall{call("1", "f"), call("2", "g")}, nil, []engine.ToolCall{ref("1", "f"), ref("2", "g")}, true},
		{"swapped calls do not match", `""`, []engine.ToolCall{call("2", "g"), call("1", "f")}, nil, []engine.ToolCall{ref("1", "f"), ref("2", "g")}, false},
	} {
		m := engine.Message{Role: "assistant", Content: json.RawMessage(tc.content), ToolCalls: tc.msgCall}
		if got := engine.TurnMatches(&m, tc.texts, tc.calls); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.reason, got, tc.want)
		}
	}
}
