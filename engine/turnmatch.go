package engine

import (
	"strings"

	"github.com/tidwall/gjson"
)

// TurnMatches reports whether the text and tool calls read from a
// message's native blocks still describe its visible turn: texts joined
// with "\n" equal the string content (no texts for null content), and
// calls carry the message's tool call ids and function names, in order.
// Only ID and Function.Name of calls are compared. A display-only branch
// that changed either makes a native dialect replay from the standard view.
func TurnMatches(m *Message, texts []string, calls []ToolCall) bool {
	if len(calls) != len(m.ToolCalls) {
		return false
	}
	for i, tc := range m.ToolCalls {
		if calls[i].ID != tc.ID || calls[i].Function.Name != tc.Function.Name {
			return false
		}
	}
	c := gjson.ParseBytes(m.Content)
	switch {
	case IsNullContent(m.Content):
		return len(texts) == 0
	case c.Type == gjson.String:
		return strings.Join(texts, "\n") == c.Str
	}
	return false
}
