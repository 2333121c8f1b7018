package report

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	cell := func(target, scenario string, s Status, provenance string) Cell {
		return Cell{Target: target, Scenario: scenario, Status: s, Provenance: provenance}
	}
	ok := cell("a", "x", StatusPass, ProvenanceRecorded)
	tests := []struct {
		m      Matrix
		want   string // "" for valid
		reason string
	}{
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{ok}}, "", "a complete matrix is valid"},
		{Matrix{}, "", "an empty matrix is valid"},
		{Matrix{Implementation: &Implementation{Name: "acme-agent", Version: "0.3.1"}}, "", "an implementation needs a name and a version"},
		{Matrix{Implementation: &Implementation{Name: "acme-agent"}}, "implementation.version: empty", "an implementation names its version"},
		{Matrix{Implementation: &Implementation{Name: "acme\nagent", Version: "1"}}, `implementation.name: "acme\nagent" is not one line`,
			"an implementation's name is one line"},
		{Matrix{Implementation: &Implementation{Name: "a", Version: "1", Homepage: "x\ry"}}, `implementation.homepage: "x\ry" is not one line`,
			"optional fields are one line too"},
		{Matrix{Targets: []string{"gemini-2.5_pro"}, Scenarios: []string{"x"}, Cells: []Cell{cell("gemini-2.5_pro", "x", StatusNA, "")}},
			"", "ids may join words with dots and underscores"},
		{Matrix{Targets: []string{"a", "Bad Id"}, Scenarios: []string{"x"}},
			`targets[1]: "Bad Id" is not a lowercase id (words of a-z and 0-9 joined by -, . or _)`, "ids are lowercase words"},
		{Matrix{Targets: []string{"a-"}, Scenarios: []string{"x"}}, `targets[0]: "a-" is not a lowercase id`, "an id does not end in a separator"},
		{Matrix{Targets: []string{"a--b"}, Scenarios: []string{"x"}}, `targets[0]: "a--b" is not a lowercase id`, "separators are single"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{""}}, `scenarios[0]: "" is not a lowercase id`, "an empty scenario name is refused"},
		{Matrix{Targets: []string{"a", "a"}, Scenarios: []string{"x"}}, `targets[1]: duplicate id "a"`, "target ids are unique"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x", "x"}}, `scenarios[1]: duplicate id "x"`, "scenario names are unique"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{ok, cell("b", "x", StatusPass, ProvenanceRecorded)}},
			`cells[1].target: "b" is not listed in targets`, "a cell names a listed target"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{cell("a", "y", StatusPass, ProvenanceRecorded)}},
			`cells[0].scenario: "y" is not listed in scenarios`, "a cell names a listed scenario"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{ok, ok}},
			`cells[1]: duplicate cell a/x (first at cells[0])`, "one cell per target × scenario"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{cell("a", "x", "passed", ProvenanceRecorded)}},
			`cells[0].status: unknown status "passed" (want one of pass, fail, unverified, n/a, known-fail, advisory, error)`, "statuses are the seven"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{cell("a", "x", StatusPass, "")}},
			`cells[0].provenance: empty on a pass cell (want "simulated" or "recorded")`, "a judged cell says what judged it"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{cell("a", "x", StatusFail, "live")}},
			`cells[0].provenance: unknown provenance "live" (want "simulated" or "recorded")`, "provenance is one of two words"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{cell("a", "x", StatusNA, ProvenanceSimulated)}},
			`cells[0].provenance: "simulated" on an n/a cell (want "": nothing was judged)`, "n/a cells have no provenance"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{cell("a", "x", StatusUnverified, "")}},
			"", "an unverified cell may have no cassette to name"},
		{Matrix{Targets: []string{"a", "b"}, Scenarios: []string{"x"}, Cells: []Cell{ok}},
			`cells: no cell for b/x`, "every target × scenario has a cell"},
		{Matrix{Targets: []string{"t-missing", "t"}, Scenarios: []string{"echo", "missing-echo"}, Cells: []Cell{
			cell("t-missing", "echo", StatusPass, ProvenanceRecorded), cell("t", "missing-echo", StatusPass, ProvenanceRecorded)}},
			`cells[1]: cell t/missing-echo has the same detail anchor "detail-t-missing-echo" as cells[0]`,
			"detail anchors must not collide"},
	}
	for _, tc := range tests {
		err := tc.m.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: unexpected error %v", tc.reason, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s: got error %v, want %s", tc.reason, err, tc.want)
		}
	}
}
