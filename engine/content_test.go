package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

// TestIsNullContent checks which contents count as null.
func TestIsNullContent(t *testing.T) {
	for _, tc := range []struct {
		reason string
		c      string
		want   bool
	}{
		{"absent content is null", "", true},
		{"JSON null is null", "null", true},
		{"null with spaces is null", " null\n", true},
		{"an empty string is not null", `""`, false},
		{"an empty array is not null", `[]`, false},
	} {
		if got := engine.IsNullContent(json.RawMessage(tc.c)); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.reason, got, tc.want)
		}
	}
}

// TestSystemTexts checks the order and the forms of system texts read.
func TestSystemTexts(t *testing.T) {
	msg := func(role, content string) engine.Message {
		return engine.Message{Role: role, Content: json.RawMessage(content)}
	}
	for _, tc := range []struct {
		reason string
		system string
		msgs   []engine.Message
		want   []string
	}{
		{"the prompt comes before system messages", "P", []engine.Message{msg("user", `"u"`), msg("system", `"S"`)}, []string{"P", "S"}},
		{"each text part is its own entry", "", []engine.Message{msg("system", `[{"type":"text","text":"a"},{"type":"image"},{"text":""},{"text":"b"}]`)}, []string{"a", "b"}},
		{"empty texts are left out", "", []engine.Message{msg("system", `""`), msg("system", `null`)}, nil},
		{"other roles are not read", "", []engine.Message{msg("assistant", `"x"`), msg("tool", `"y"`)}, nil},
	} {
		got := engine.SystemTexts(tc.system, tc.msgs)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("%s: got %q, want %q", tc.reason, got, tc.want)
		}
	}
}
