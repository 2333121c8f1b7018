package engine

import (
	"encoding/json"
	"strings"
)

// StandardThinking returns the readable reasoning of a message's standard
// carriers: the first non-blank of reasoning_content and reasoning, or ""
// when both are blank or absent.
func StandardThinking(m *Message) string {
	for _, p := range []*string{m.ReasoningContent, m.Reasoning} {
		if p != nil && strings.TrimSpace(*p) != "" {
			return *p
		}
	}
	return ""
}

// HasThinkingItems reports whether a message's reasoning_details hold an
// item of type "thinking".
func HasThinkingItems(m *Message) bool {
	for _, item := range m.ReasoningDetails {
		if ItemType(item) == "thinking" {
			return true
		}
	}
	return false
}

// SetStandardView fills the chat-standard view of a captured native turn:
// texts joined with "\n" as content (null when the turn only calls tools,
// "" when it has neither), and the readable thoughts joined with "\n\n" as
// reasoning_content (absent when there are none). The tool calls must be
// set already.
func SetStandardView(m *Message, texts, thoughts []string) {
	switch {
	case len(texts) > 0:
		text := strings.Join(texts, "\n")
		m.Content = json.RawMessage(AppendQuoted(make([]byte, 0, len(text)+16), text))
	case len(m.ToolCalls) > 0:
		m.Content = json.RawMessage("null")
	default:
		m.Content = json.RawMessage(`""`)
	}
	if len(thoughts) > 0 {
		m.ReasoningContent = Str(strings.Join(thoughts, "\n\n"))
	}
}
