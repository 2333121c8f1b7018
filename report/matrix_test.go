package report

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSort(t *testing.T) {
	tests := []struct {
		targets, scenarios []string
		targetOrder        []string
		scenarioOrder      []string
		wantTargets        []string
		wantScenarios      []string
		wantCells          []string
		reason             string
	}{
		{
			targets: []string{"b", "a"}, scenarios: []string{"y", "x"},
			targetOrder: []string{"a", "b"}, scenarioOrder: []string{"x", "y"},
			wantTargets: []string{"a", "b"}, wantScenarios: []string{"x", "y"},
			wantCells: []string{"a/x", "a/y", "b/x", "b/y"},
			reason:    "cells follow the target order first, then the scenario order",
		},
		{
			targets: []string{"deepseek", "anthropic"}, scenarios: []string{"resume", "carriers"},
			targetOrder: []string{"deepseek", "anthropic"}, scenarioOrder: []string{"carriers", "resume"},
			wantTargets: []string{"deepseek", "anthropic"}, wantScenarios: []string{"carriers", "resume"},
			wantCells: []string{"deepseek/carriers", "deepseek/resume", "anthropic/carriers", "anthropic/resume"},
			reason:    "the declared order wins over alphabetical order",
		},
		{
			targets: []string{"zeta", "b", "alpha"}, scenarios: []string{"x"},
			targetOrder: []string{"b"}, scenarioOrder: nil,
			wantTargets: []string{"b", "alpha", "zeta"}, wantScenarios: []string{"x"},
			wantCells: []string{"b/x", "alpha/x", "zeta/x"},
			reason:    "ids missing from the order go last, by name",
		},
		{
			targets: []string{"b", "a"}, scenarios: []string{"x"},
			targetOrder: []string{"a", "b", "a"}, scenarioOrder: []string{"x"},
			wantTargets: []string{"a", "b"}, wantScenarios: []string{"x"},
			wantCells: []string{"a/x", "b/x"},
			reason:    "a repeated id in the order keeps its first position",
		},
	}
	for _, tc := range tests {
		m := &Matrix{Targets: tc.targets, Scenarios: tc.scenarios}
		for i := len(tc.targets) - 1; i >= 0; i-- { // cells in reverse of the input order
			for j := len(tc.scenarios) - 1; j >= 0; j-- {
				m.Cells = append(m.Cells, Cell{Target: tc.targets[i], Scenario: tc.scenarios[j], Status: StatusNA})
			}
		}
		m.Sort(tc.targetOrder, tc.scenarioOrder)
		var cells []string
		for _, c := range m.Cells {
			cells = append(cells, c.ID())
		}
		got := []any{m.Targets, m.Scenarios, cells}
		want := []any{tc.wantTargets, tc.wantScenarios, tc.wantCells}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: Sort (-want +got):\n%s", tc.reason, diff)
		}
	}
}

func TestCellLookup(t *testing.T) {
	m := sampleMatrix()
	tests := []struct {
		target, scenario string
		want             Status
		found            bool
		reason           string
	}{
		{"deepseek", "missing-echo", StatusFail, true, "an existing cell is found"},
		{"bedrock-converse-claude", "missing-echo", StatusUnverified, true, "lookup matches target and scenario together"},
		{"deepseek", "resume", "", false, "a scenario not in the matrix has no cell"},
		{"missing-echo", "deepseek", "", false, "target and scenario are not interchangeable"},
	}
	for _, tc := range tests {
		c, ok := m.Cell(tc.target, tc.scenario)
		if ok != tc.found || c.Status != tc.want {
			t.Errorf("%s: Cell(%q, %q) = %q, %v; want %q, %v", tc.reason, tc.target, tc.scenario, c.Status, ok, tc.want, tc.found)
		}
	}
}

func TestCountsAndFailed(t *testing.T) {
	onlyPass := &Matrix{Targets: []string{"a"}, Scenarios: []string{"x"},
		Cells: []Cell{{Target: "a", Scenario: "x", Status: StatusPass, Provenance: ProvenanceRecorded}}}
	knownFail := &Matrix{Targets: []string{"a"}, Scenarios: []string{"x"},
		Cells: []Cell{{Target: "a", Scenario: "x", Status: StatusKnownFail, Provenance: ProvenanceRecorded}}}
	tests := []struct {
		m       *Matrix
		counts  map[Status]int
		failed  bool
		errored bool
		summary string
		reason  string
	}{
		{
			m: sampleMatrix(),
			counts: map[Status]int{StatusPass: 5, StatusFail: 2, StatusUnverified: 1, StatusNA: 5,
				StatusKnownFail: 1, StatusAdvisory: 1, StatusError: 1},
			failed:  true,
			errored: true,
			summary: "4 targets × 4 scenarios: 5 pass, 2 fail, 1 unverified, 5 n/a, 1 known-fail, 1 advisory, 1 error (of the fails: 2 on documented evidence, 0 on partial or unconfirmed profile rules, 0 SPEC invariants the provider accepted)",
			reason:  "the sample has every status; two cells fail",
		},
		{
			m:       onlyPass,
			counts:  map[Status]int{StatusPass: 1, StatusFail: 0, StatusUnverified: 0, StatusNA: 0, StatusKnownFail: 0, StatusAdvisory: 0, StatusError: 0},
			failed:  false,
			summary: "1 target × 1 scenario: 1 pass, 0 fail, 0 unverified, 0 n/a, 0 known-fail, 0 advisory, 0 error",
			reason:  "absent statuses count zero and the shape is singular",
		},
		{
			m:       knownFail,
			counts:  map[Status]int{StatusPass: 0, StatusFail: 0, StatusUnverified: 0, StatusNA: 0, StatusKnownFail: 1, StatusAdvisory: 0, StatusError: 0},
			failed:  false,
			summary: "1 target × 1 scenario: 0 pass, 0 fail, 0 unverified, 0 n/a, 1 known-fail, 0 advisory, 0 error",
			reason:  "a declared known failure that still fails does not fail the matrix",
		},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.counts, tc.m.Counts()); diff != "" {
			t.Errorf("%s: Counts (-want +got):\n%s", tc.reason, diff)
		}
		if got := tc.m.Failed(); got != tc.failed {
			t.Errorf("%s: Failed() = %v, want %v", tc.reason, got, tc.failed)
		}
		if got := tc.m.Errored(); got != tc.errored {
			t.Errorf("%s: Errored() = %v, want %v", tc.reason, got, tc.errored)
		}
		if got := tc.m.Summary(); got != tc.summary {
			t.Errorf("%s: Summary() = %q, want %q", tc.reason, got, tc.summary)
		}
	}
}

func TestCellText(t *testing.T) {
	tests := []struct {
		cell   Cell
		text   string
		anchor string
		reason string
	}{
		{Cell{Target: "a", Scenario: "x", Status: StatusPass, Provenance: ProvenanceSimulated}, "pass (sim)", "detail-a-x", "simulated is marked sim"},
		{Cell{Target: "a", Scenario: "x", Status: StatusPass, Provenance: ProvenanceRecorded}, "pass (rec)", "detail-a-x", "recorded is marked rec"},
		{Cell{Target: "kimi", Scenario: "missing-echo", Status: StatusFail, Provenance: ProvenanceRecorded}, "FAIL (rec)", "detail-kimi-missing-echo", "a failure is in capitals"},
		{Cell{Target: "a", Scenario: "x", Status: StatusNA}, "n/a", "detail-a-x", "no provenance, no marker"},
		{Cell{Target: "a", Scenario: "x", Status: StatusUnverified}, "unverified", "detail-a-x", "an unverified cell may lack provenance"},
		{Cell{Target: "a", Scenario: "x", Status: StatusKnownFail, Provenance: ProvenanceSimulated}, "known-fail (sim)", "detail-a-x", "known-fail keeps its name"},
		{Cell{Target: "a", Scenario: "x", Status: StatusError}, "ERROR", "detail-a-x", "an error is in capitals and may lack provenance"},
	}
	for _, tc := range tests {
		if got := tc.cell.Text(); got != tc.text {
			t.Errorf("%s: Text() = %q, want %q", tc.reason, got, tc.text)
		}
		if got := tc.cell.Anchor(); got != tc.anchor {
			t.Errorf("%s: Anchor() = %q, want %q", tc.reason, got, tc.anchor)
		}
	}
}

func TestStatuses(t *testing.T) {
	want := []Status{"pass", "fail", "unverified", "n/a", "known-fail", "advisory", "error"}
	if diff := cmp.Diff(want, Statuses()); diff != "" {
		t.Errorf("the seven statuses and their order are part of the contract (-want +got):\n%s", diff)
	}
	for _, s := range []Status{"", "PASS", "na", "skipped", "known_fail"} {
		if s.Valid() {
			t.Errorf("%q must not be a valid status", s)
		}
		if s.Meaning() != "unknown status" {
			t.Errorf("%q must have no meaning, got %q", s, s.Meaning())
		}
	}
}

// TestFailClasses: a failing cell counts by what it rests on, and says so.
func TestFailClasses(t *testing.T) {
	m := &Matrix{Cells: []Cell{
		{Status: StatusFail, Verdict: VerdictRefused, Confidence: "confirmed"},
		{Status: StatusFail, Verdict: VerdictRefused, Confidence: ConfidenceRecorded},
		{Status: StatusFail, Verdict: VerdictRefused, Confidence: "partial"},
		{Status: StatusFail, Verdict: VerdictRefused, Confidence: "unconfirmed"},
		{Status: StatusFail, Verdict: VerdictAnswer},
		{Status: StatusFail, Verdict: VerdictInvariant},
		{Status: StatusKnownFail, Verdict: VerdictInvariant},
		{Status: StatusPass},
	}}
	if d, g, i := m.FailClasses(); d != 3 || g != 2 || i != 1 {
		t.Errorf("FailClasses() = %d documented, %d guessed, %d invariants; want 3, 2, 1", d, g, i)
	}
	for _, tc := range []struct {
		c    Cell
		want string
	}{
		{m.Cells[0], "the provider refused it (a confirmed profile rule)"},
		{m.Cells[1], "the provider refused it (a live recording)"},
		{m.Cells[4], "the provider accepted; its answer shows reasoning lost"},
		{m.Cells[5], "the provider accepted; a SPEC invariant broke"},
		{m.Cells[7], ""},
	} {
		if got := tc.c.VerdictText(); got != tc.want {
			t.Errorf("%+v: VerdictText() = %q, want %q", tc.c, got, tc.want)
		}
	}
}
