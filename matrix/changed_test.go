package matrix_test

import (
	"testing"

	"github.com/replaycheck/replaycheck/matrix"
)

// TestChangedFlagValueAgreesWithChangedScalar: the battery's change of a
// table value is the JSON of mutate's change of the YAML scalar, so the
// variant it records is the request the mutant sends.
func TestChangedFlagValueAgreesWithChangedScalar(t *testing.T) {
	for _, tc := range []struct{ raw, text, tag, want string }{
		{`"enabled"`, "enabled", "!!str", `"enabled-changed"`},
		{`false`, "false", "!!bool", `true`},
		{`true`, "true", "!!bool", `false`},
		{`7`, "7", "!!int", `8`},
	} {
		got, ok := matrix.ChangedFlagValue([]byte(tc.raw))
		if !ok || string(got) != tc.want {
			t.Errorf("ChangedFlagValue(%s) = %s, %v; want %s", tc.raw, got, ok, tc.want)
		}
		to, tag := matrix.ChangedScalar(tc.text, tc.tag)
		if to+tag != trimQuotes(tc.want)+tc.tag {
			t.Errorf("ChangedScalar(%s, %s) = %s %s; want %s", tc.text, tc.tag, to, tag, tc.want)
		}
	}
	if _, ok := matrix.ChangedFlagValue([]byte(`{"type":"enabled"}`)); ok {
		t.Error("ChangedFlagValue changed an object; mutate changes only scalars")
	}
}

func trimQuotes(s string) string {
	if len(s) >= 2 && s[0] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}
