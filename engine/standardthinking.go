package engine

import "strings"

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
