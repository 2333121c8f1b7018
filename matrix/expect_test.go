package matrix_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/matrix"
)

// TestExpectationsRoundTrip: what WriteExpectations writes parses back to
// the same cells, reasons and causes, whatever quotes and newlines they
// hold, sorted by target and scenario.
func TestExpectationsRoundTrip(t *testing.T) {
	f, err := matrix.Load("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	in := &matrix.Expectations{
		KnownFailures: []matrix.KnownFailure{
			{Target: "mistral", Scenario: "strict-schema", Reason: "sends \"reasoning\"\nto a strict row", Cause: `Unknown name "reasoning"`},
			{Target: "deepseek~1", Scenario: "carriers", Reason: `a \ backslash`, Cause: "The `reasoning_content` in the thinking mode"},
		},
		Advisories: []matrix.KnownFailure{{Target: "groq", Scenario: "compaction", Reason: "the strict row"}},
	}
	var b bytes.Buffer
	if err := matrix.WriteExpectations(&b, `peer "1"`, in); err != nil {
		t.Fatal(err)
	}
	out, err := matrix.ParseExpectations("expect.yaml", b.Bytes(), f)
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if len(out.KnownFailures) != 2 || out.KnownFailures[0].Target != "deepseek~1" || out.KnownFailures[1].Reason != in.KnownFailures[0].Reason ||
		out.KnownFailures[1].Cause != in.KnownFailures[0].Cause || out.KnownFailures[0].Reason != in.KnownFailures[1].Reason {
		t.Errorf("read back %+v from\n%s", out.KnownFailures, b.String())
	}
	if k, ok := out.Advisory("groq", "compaction"); !ok || k.Reason != "the strict row" {
		t.Errorf("advisory read back %+v, %v", k, ok)
	}
	if _, ok := out.KnownFailure("groq", "compaction"); ok {
		t.Error("an advisory is not a known failure")
	}
}

// TestExpectationsBadInput: every mistake names the file and the line.
func TestExpectationsBadInput(t *testing.T) {
	f, err := matrix.Load("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const entry = "known_failures:\n  - {target: mistral, scenario: carriers, reason: r, cause: c}\n"
	for _, tc := range []struct{ name, doc, want string }{
		{"empty", "", "e.yaml: empty document"},
		{"no version", "implementation: x\n", "e.yaml:1: version must be 1"},
		{"unknown key", "version: 1\nknown_failure: []\n", `e.yaml:2: expectations: unknown key "known_failure"`},
		{"no cause", "version: 1\nknown_failures:\n  - {target: mistral, scenario: carriers, reason: r}\n", "e.yaml:3: expected failure mistral/carriers: a cause is required"},
		{"unknown target", "version: 1\nknown_failures:\n  - {target: nope, scenario: carriers, reason: r, cause: c}\n", `e.yaml:3: expected failure: unknown target "nope"`},
		{"unknown scenario", "version: 1\nadvisories:\n  - {target: groq, scenario: carrier, reason: r}\n", `e.yaml:3: expected advisory: unknown scenario "carrier"`},
		{"twice", "version: 1\n" + entry + "  - {target: mistral, scenario: carriers, reason: r, cause: c}\n", "e.yaml:4: expected failure mistral/carriers: declared twice"},
		{"not YAML", "version: 1\nknown_failures: [\n", "e.yaml:"},
	} {
		_, err := matrix.ParseExpectations("e.yaml", []byte(tc.doc), f)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error starting %q", tc.name, err, tc.want)
		}
	}
	if _, err := matrix.ParseExpectations("e.yaml", []byte("version: 1\n"+entry), f); err != nil {
		t.Errorf("a good file: %v", err)
	}
}
