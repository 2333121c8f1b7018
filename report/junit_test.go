package report

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

// TestJUnitStructure decodes the JUnit output and checks it against the matrix: suite and case
// names, the element each status becomes, and counts that add up.
func TestJUnitStructure(t *testing.T) {
	m := sampleMatrix()
	var out bytes.Buffer
	if err := WriteJUnit(&out, m); err != nil {
		t.Fatal(err)
	}
	var root junitSuites
	if err := xml.Unmarshal(out.Bytes(), &root); err != nil {
		t.Fatalf("junit.xml does not parse: %v", err)
	}
	if len(root.Suites) != len(m.Scenarios) {
		t.Fatalf("%d suites, want one per scenario (%d)", len(root.Suites), len(m.Scenarios))
	}
	var tests, failures, errors, skipped int
	for i, suite := range root.Suites {
		if suite.Name != m.Scenarios[i] {
			t.Errorf("suite %d is %q, want %q", i, suite.Name, m.Scenarios[i])
		}
		var f, e, s int
		for j, tc := range suite.Cases {
			c, _ := m.Cell(m.Targets[j], suite.Name)
			if tc.Classname != suite.Name || tc.Name != c.ID() {
				t.Errorf("case %q (classname %q), want %q in %q", tc.Name, tc.Classname, c.ID(), suite.Name)
			}
			if tc.Failure != nil {
				f++
			}
			if tc.Error != nil {
				e++
			}
			if tc.Skipped != nil {
				s++
			}
			switch c.Status {
			case StatusFail, StatusUnverified:
				if tc.Failure == nil || tc.Failure.Type != string(c.Status) || tc.Failure.Message != paragraph(c.Detail) {
					t.Errorf("%s: a %s cell must be a <failure type=%q> with the detail as message, got %+v", c.ID(), c.Status, c.Status, tc.Failure)
					continue
				}
				for _, want := range []string{lines(c.Expected), lines(c.Actual), lines(c.ProviderError), c.Cassette} {
					if !strings.Contains(tc.Failure.Text, want) {
						t.Errorf("%s: failure text lacks %q", c.ID(), want)
					}
				}
			case StatusError:
				if tc.Error == nil || tc.Failure != nil || tc.Error.Type != "error" || tc.Error.Message != paragraph(c.Detail) ||
					!strings.Contains(tc.Error.Text, c.Cassette) {
					t.Errorf("%s: an error cell must be an <error type=\"error\"> with the detail as message and the cassette in its text, got %+v", c.ID(), tc)
				}
			case StatusNA:
				if tc.Skipped == nil || !strings.HasPrefix(tc.Skipped.Message, "n/a: ") || tc.Failure != nil {
					t.Errorf("%s: an n/a cell must be <skipped message=\"n/a: ...\"/>, got %+v", c.ID(), tc)
				}
			default:
				if tc.Failure != nil || tc.Skipped != nil || tc.SystemOut == nil ||
					!strings.Contains(tc.SystemOut.Text, "status: "+string(c.Status)+" ("+c.Provenance+")") {
					t.Errorf("%s: a %s cell must pass with a <system-out> note naming status and provenance, got %+v", c.ID(), c.Status, tc)
				}
			}
		}
		if suite.Tests != len(suite.Cases) || suite.Failures != f || suite.Skipped != s || suite.Errors != e {
			t.Errorf("suite %s: counts tests=%d failures=%d skipped=%d errors=%d, want %d %d %d %d",
				suite.Name, suite.Tests, suite.Failures, suite.Skipped, suite.Errors, len(suite.Cases), f, s, e)
		}
		tests, failures, errors, skipped = tests+suite.Tests, failures+suite.Failures, errors+suite.Errors, skipped+suite.Skipped
	}
	counts := m.Counts()
	if root.Tests != len(m.Cells) || root.Tests != tests || root.Failures != failures || root.Skipped != skipped ||
		root.Errors != errors || root.Errors != counts[StatusError] ||
		root.Failures != counts[StatusFail]+counts[StatusUnverified] || root.Skipped != counts[StatusNA] {
		t.Errorf("root counts tests=%d failures=%d errors=%d skipped=%d do not add up", root.Tests, root.Failures, root.Errors, root.Skipped)
	}
}

// TestJUnitInvalidCharacters checks that text XML cannot carry is replaced, so the file always
// parses.
func TestJUnitInvalidCharacters(t *testing.T) {
	m := &Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{{Target: "a", Scenario: "x",
		Status: StatusFail, Provenance: ProvenanceRecorded, Recorded: "cassettes/a/x.yaml", Detail: "nul\x00 esc\x1b bad\xff",
		ProviderError: "body ]]> with \x01 control\r\nand CRLF"}}}
	var out bytes.Buffer
	if err := WriteJUnit(&out, m); err != nil {
		t.Fatal(err)
	}
	var root junitSuites
	if err := xml.Unmarshal(out.Bytes(), &root); err != nil {
		t.Fatalf("junit.xml with control characters does not parse: %v\n%s", err, out.String())
	}
	f := root.Suites[0].Cases[0].Failure
	if f.Message != "nul\uFFFD esc\uFFFD bad\uFFFD" {
		t.Errorf("message %q: invalid characters must become U+FFFD", f.Message)
	}
	if !strings.Contains(f.Text, "body ]]> with \uFFFD control\nand CRLF") {
		t.Errorf("failure text %q: ]]> must survive CDATA and CRLF become LF", f.Text)
	}
}
