package engine_test

import (
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

// TestToolArgsObject checks the wire form of tool-call arguments.
func TestToolArgsObject(t *testing.T) {
	for _, tc := range []struct {
		reason string
		args   string
		want   string
		fails  bool
	}{
		{reason: "empty arguments are an empty object", args: "", want: "{}"},
		{reason: "blank arguments are an empty object", args: " \n\t", want: "{}"},
		{reason: "an object is compacted", args: "{ \"a\" : [1, 2] }", want: `{"a":[1,2]}`},
		{reason: "an object keeps its key order", args: `{"b":1,"a":2}`, want: `{"b":1,"a":2}`},
		{reason: "an array is not an object", args: `[1]`, fails: true},
		{reason: "a string is not an object", args: `"x"`, fails: true},
		{reason: "broken JSON fails", args: `{"a":`, fails: true},
	} {
		got, err := engine.ToolArgsObject(tc.args)
		if tc.fails {
			if err == nil {
				t.Errorf("%s: got %s, want an error", tc.reason, got)
			}
			continue
		}
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: got %s, %v; want %s", tc.reason, got, err, tc.want)
		}
	}
}
