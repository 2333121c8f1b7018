package jsondiff

import (
	"strings"
	"testing"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		reason string
		diffs  []Difference
		want   string
	}{
		{"no differences give the empty string", nil, ""},
		{
			"one line per difference, no trailing newline",
			[]Difference{{"messages.1.reasoning", `"x"`, Absent}, {"model", `"a"`, `"b"`}},
			"messages.1.reasoning: want \"x\" got (absent)\nmodel: want \"a\" got \"b\"",
		},
		{"the empty path is the root", []Difference{{"", `1`, `2`}}, "(root): want 1 got 2"},
	}
	for _, tt := range tests {
		if got := Format(tt.diffs); got != tt.want {
			t.Errorf("%s: Format =\n%s\nwant\n%s", tt.reason, got, tt.want)
		}
	}
}

func TestShorten(t *testing.T) {
	tests := []struct {
		reason string
		in     string
		want   string
	}{
		{"short text is kept", "abc", "abc"},
		{"exactly the limit is kept", strings.Repeat("a", 120), strings.Repeat("a", 120)},
		{"one byte over is cut", strings.Repeat("a", 121), strings.Repeat("a", 120) + "…(+1 bytes)"},
		{"a cut never splits a UTF-8 character", strings.Repeat("a", 119) + "世界", strings.Repeat("a", 119) + "…(+6 bytes)"},
	}
	for _, tt := range tests {
		if got := shorten([]byte(tt.in)); got != tt.want {
			t.Errorf("%s: shorten = %q, want %q", tt.reason, got, tt.want)
		}
	}
}
