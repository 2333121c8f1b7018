package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTableAligned checks that every column of the plain grid starts at the same position on
// every line and that no line has trailing spaces.
func TestTableAligned(t *testing.T) {
	m := sampleMatrix()
	var out bytes.Buffer
	if err := WriteTable(&out, m, false); err != nil {
		t.Fatal(err)
	}
	gridLines := strings.Split(out.String(), "\n")[:len(m.Targets)+2]
	header := gridLines[0]
	var starts []int
	for _, s := range m.Scenarios {
		starts = append(starts, strings.Index(header, s))
	}
	for _, line := range gridLines[1:] {
		for j, start := range starts {
			if start < 1 || start > len(line) || line[start-1] != ' ' || line[start] == ' ' {
				t.Errorf("column %q does not start at byte %d in %q", m.Scenarios[j], start, line)
			}
		}
	}
	for i, line := range strings.Split(out.String(), "\n") {
		if strings.TrimRight(line, " ") != line {
			t.Errorf("line %d has trailing spaces: %q", i+1, line)
		}
	}
	if !strings.Contains(out.String(), "\n"+m.Summary()+"\n\nrecorded evidence: "+m.Evidence.Summary()+"\n") {
		t.Errorf("the grid's summary line must be followed by the evidence summary")
	}

	if strings.Contains(out.String(), "\x1b") {
		t.Errorf("colour codes written without color")
	}
}

// ansiCode matches one SGR escape.
var ansiCode = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestTableColor checks that colour only adds escapes: with them removed, the coloured table
// is the plain one, and every status is coloured.
func TestTableColor(t *testing.T) {
	var plain, colored bytes.Buffer
	if err := WriteTable(&plain, sampleMatrix(), false); err != nil {
		t.Fatal(err)
	}
	if err := WriteTable(&colored, sampleMatrix(), true); err != nil {
		t.Fatal(err)
	}
	if got := ansiCode.ReplaceAllString(colored.String(), ""); got != plain.String() {
		t.Errorf("the coloured table without escapes differs from the plain table:\n%s", got)
	}
	for _, s := range Statuses() {
		if want := "\x1b[" + ansi[s] + "m" + s.Label(); !strings.Contains(colored.String(), want) {
			t.Errorf("status %s is not coloured (want %q)", s, want)
		}
	}
}

// TestTableWidths checks that the grid grows with long ids and wide text.
func TestTableWidths(t *testing.T) {
	long := "a-very-long-target-id-for-a-gateway"
	m := &Matrix{Targets: []string{"x", long}, Scenarios: []string{"s"}, Cells: []Cell{
		{Target: "x", Scenario: "s", Status: StatusKnownFail, Provenance: ProvenanceSimulated},
		{Target: long, Scenario: "s", Status: StatusPass, Provenance: ProvenanceRecorded, Recorded: "cassettes/" + long + "/s.yaml"},
	}}
	var out bytes.Buffer
	if err := WriteTable(&out, m, false); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(out.String(), "\n")
	want := []string{
		"target" + strings.Repeat(" ", utf8.RuneCountInString(long)-4) + "s",
		strings.Repeat("-", len(long)) + "  " + strings.Repeat("-", len("known-fail (sim)")),
		"x" + strings.Repeat(" ", len(long)+1) + "known-fail (sim)",
		long + "  pass (rec)",
	}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("line %d:\n got %q\nwant %q", i+1, got[i], w)
		}
	}
}

// TestTableNeutralisesControls checks that a detail cannot drive the terminal.
func TestTableNeutralisesControls(t *testing.T) {
	m := &Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{{Target: "a", Scenario: "x",
		Status: StatusFail, Provenance: ProvenanceRecorded, Recorded: "cassettes/a/x.yaml", Detail: "refused\x1b[2J here\x07"}}}
	var out bytes.Buffer
	if err := WriteTable(&out, m, false); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(out.String(), "\x1b\x07") {
		t.Errorf("control characters reached the terminal: %q", out.String())
	}
	if !strings.Contains(out.String(), `a/x: FAIL (recorded): refused\x1b[2J here\x07`) {
		t.Errorf("control characters must be shown escaped, got %q", out.String())
	}
}
