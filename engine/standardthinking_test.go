package engine_test

import (
	"encoding/json"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

// TestStandardThinking checks which carrier's reasoning is read.
func TestStandardThinking(t *testing.T) {
	s := func(v string) *string { return &v }
	for _, tc := range []struct {
		reason string
		m      engine.Message
		want   string
	}{
		{"reasoning_content comes first", engine.Message{ReasoningContent: s("rc"), Reasoning: s("r")}, "rc"},
		{"a blank reasoning_content falls through to reasoning", engine.Message{ReasoningContent: s(" \n"), Reasoning: s("r")}, "r"},
		{"reasoning alone is read", engine.Message{Reasoning: s("r")}, "r"},
		{"the text is returned as it is, spaces included", engine.Message{ReasoningContent: s(" rc ")}, " rc "},
		{"both blank is empty", engine.Message{ReasoningContent: s(""), Reasoning: s("\t")}, ""},
		{"no carriers is empty", engine.Message{}, ""},
	} {
		if got := engine.StandardThinking(&tc.m); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.reason, got, tc.want)
		}
	}
}

// TestHasThinkingItems checks the reasoning_details item types that count.
func TestHasThinkingItems(t *testing.T) {
	for _, tc := range []struct {
		reason string
		items  []string
		want   bool
	}{
		{"a thinking item counts", []string{`{"type":"reasoning.text"}`, `{"type":"thinking","thinking":"x"}`}, true},
		{"other types do not", []string{`{"type":"reasoning.text"}`, `{"type":"redacted_thinking"}`}, false},
		{"no items", nil, false},
	} {
		var m engine.Message
		for _, it := range tc.items {
			m.ReasoningDetails = append(m.ReasoningDetails, json.RawMessage(it))
		}
		if got := engine.HasThinkingItems(&m); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.reason, got, tc.want)
		}
	}
}
