package main

import (
	"errors"
	"slices"
	"testing"
)

func TestParseInterleaved(t *testing.T) {
	tests := []struct {
		reason string
		args   []string
		pos    []string
		json   bool
		list   []string
	}{
		{"flags first", []string{"--json", "a", "b"}, []string{"a", "b"}, true, nil},
		{"flags after positionals", []string{"a", "--json", "b"}, []string{"a", "b"}, true, nil},
		{"single dash is a positional (stdin)", []string{"-", "--json"}, []string{"-"}, true, nil},
		{"everything after -- is positional", []string{"a", "--", "--json", "-x"}, []string{"a", "--json", "-x"}, false, nil},
		{"list flags split on commas and add up", []string{"--list", "a, b", "--list=c,,", "x"}, []string{"x"}, false, []string{"a", "b", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			f := newFlags("demo", "demo", "demo")
			asJSON := f.Bool("json", false, "")
			var list listFlag
			f.Var(&list, "list", "")
			pos, err := f.parse(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(pos, tt.pos) || *asJSON != tt.json || !slices.Equal(list, tt.list) {
				t.Errorf("parse(%q) = %q json=%v list=%q; want %q json=%v list=%q", tt.args, pos, *asJSON, list, tt.pos, tt.json, tt.list)
			}
		})
	}
	var help *helpRequest
	if _, err := newFlags("demo", "demo", "demo").parse([]string{"x", "-h"}); !errors.As(err, &help) {
		t.Errorf("-h after a positional gave %v, want a help request", err)
	}
}
