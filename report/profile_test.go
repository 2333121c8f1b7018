package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestProfileProvenance: a cell judged by the provider's profile is marked
// prof in every grid, and the legends explain the marker only when some
// cell carries it (reports without one stay as they were).
func TestProfileProvenance(t *testing.T) {
	m := &Matrix{Targets: []string{"a"}, Scenarios: []string{"x", "y"}, Cells: []Cell{
		{Target: "a", Scenario: "x", Status: StatusPass, Provenance: ProvenanceProfile, Detail: "judged by the a profile v1: 200, no rule fires"},
		{Target: "a", Scenario: "y", Status: StatusFail, Provenance: ProvenanceSimulated, Detail: "refused"},
	}}
	if err := m.Validate(); err != nil {
		t.Fatalf("a profile-judged cell is not valid: %v", err)
	}
	if got := m.Cells[0].Text(); got != "pass (prof)" {
		t.Errorf("Text() = %q, want pass (prof)", got)
	}
	write := map[string]func(*bytes.Buffer, *Matrix) error{
		"md":   func(b *bytes.Buffer, m *Matrix) error { return WriteMarkdown(b, m) },
		"html": func(b *bytes.Buffer, m *Matrix) error { return WriteHTML(b, m) },
	}
	legend := map[string]string{"md": "`(prof)` some request no cassette holds", "html": `<span class="prov prov-profile">p</span></dt><dd>profile: `}
	for name, w := range write {
		var with, without bytes.Buffer
		if err := w(&with, m); err != nil {
			t.Fatal(err)
		}
		plain := *m
		plain.Cells = []Cell{m.Cells[1], {Target: "a", Scenario: "x", Status: StatusPass, Provenance: ProvenanceSimulated}}
		if err := w(&without, &plain); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(with.String(), legend[name]) {
			t.Errorf("%s: the legend does not explain prof", name)
		}
		// The page's legend lists every marker a cell can carry; the
		// Markdown explains prof where a cell carries it.
		if name == "md" && strings.Contains(without.String(), "(prof)") {
			t.Errorf("%s: a report without profile-judged cells mentions prof", name)
		}
		if name == "html" && !strings.Contains(without.String(), legend[name]) {
			t.Errorf("%s: the legend does not explain prof when no cell carries it", name)
		}
	}
}
