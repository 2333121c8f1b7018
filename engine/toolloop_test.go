package engine_test

import (
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

func TestLastRealUser(t *testing.T) {
	m := func(roles ...string) []engine.Message {
		var out []engine.Message
		for _, r := range roles {
			out = append(out, engine.Message{Role: r, ToolCallID: "x"})
		}
		return out
	}
	tests := []struct {
		hist   []engine.Message
		want   int
		reason string
	}{
		{m("user", "assistant", "tool", "assistant", "tool"), 0, "tool results do not end the loop"},
		{m("user", "assistant", "tool", "user", "assistant"), 0, "a steer after a tool result belongs to the tool turn"},
		{m("user", "assistant", "tool", "user", "user"), 0, "several steers too"},
		{m("user", "assistant", "user", "assistant", "tool"), 2, "a user message after an answer is real"},
		{m("system", "assistant", "tool"), -1, "no user message at all"},
		{nil, -1, "an empty history"},
	}
	for _, tc := range tests {
		if got := engine.LastRealUser(tc.hist); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.reason, got, tc.want)
		}
	}
	answered := engine.AnsweredToolCalls([]engine.Message{{Role: "tool", ToolCallID: "a"}, {Role: "user", ToolCallID: "b"}, {Role: "tool"}})
	if len(answered) != 1 || !answered["a"] {
		t.Errorf("answered %v, want only a", answered)
	}
}
