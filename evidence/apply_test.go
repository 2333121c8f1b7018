package evidence

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/report"
)

// TestApply marks the cells the evidence is for, with a reason per row.
func TestApply(t *testing.T) {
	x := func(cassette string, interaction int, repro report.Verdict, scenarios ...string) report.EvidenceExchange {
		return report.EvidenceExchange{Cassette: cassette, Interaction: interaction, Target: "t",
			Capture: report.Check{Verdict: report.VerdictPass}, Simulator: report.Check{Verdict: report.VerdictAgree},
			Reproduction: report.Check{Verdict: repro, Detail: "why " + string(repro), Scenarios: scenarios,
				Findings: []report.Finding{{Path: "messages.1.x", Engine: "e", Recorded: "r", Verdict: repro, Why: "because"}}}}
	}
	cell := func(scenario string, s report.Status) report.Cell {
		return report.Cell{Target: "t", Scenario: scenario, Status: s, Provenance: report.ProvenanceSimulated, Detail: "sim"}
	}
	tests := []struct {
		cell      report.Cell
		exchanges []report.EvidenceExchange
		status    report.Status
		prov      string
		recorded  string
		detail    string
		reason    string
	}{
		{cell("carriers", report.StatusPass), []report.EvidenceExchange{x("cassettes/t/recorded/a.yaml", 1, report.VerdictPass, "carriers")},
			report.StatusPass, "recorded", "cassettes/t/recorded/a.yaml", "sim; recorded evidence: t/recorded/a.yaml#1", "passing evidence backs a passing cell: (rec)"},
		{cell("carriers", report.StatusPass), []report.EvidenceExchange{x("cassettes/t/recorded/a.yaml", 1, report.VerdictAdvisory, "carriers")},
			report.StatusAdvisory, "recorded", "cassettes/t/recorded/a.yaml", "recorded evidence: t/recorded/a.yaml#1 reproduction is advisory: why advisory", "the engine sends less than the real provider accepted"},
		{cell("strict-schema", report.StatusPass), []report.EvidenceExchange{x("cassettes/t/recorded/a.yaml", 1, report.VerdictAdvisory, "strict-schema")},
			report.StatusPass, "recorded", "cassettes/t/recorded/a.yaml", "sim; recorded evidence", "advisory is the carriers column's word; elsewhere it only backs the cell"},
		{cell("signed-roundtrip", report.StatusPass), []report.EvidenceExchange{x("cassettes/t/recorded/a.yaml", 0, report.VerdictPass, "signed-roundtrip"), x("cassettes/t/recorded/b.yaml", 2, report.VerdictFail, "signed-roundtrip")},
			report.StatusFail, "recorded", "cassettes/t/recorded/a.yaml, cassettes/t/recorded/b.yaml", "recorded evidence contradicts it: t/recorded/b.yaml#2 reproduction failed: why fail", "a failing check fails the cell"},
		{cell("fallback", report.StatusKnownFail), []report.EvidenceExchange{x("cassettes/t/recorded/a.yaml", 1, report.VerdictFail, "fallback")},
			report.StatusKnownFail, "recorded", "cassettes/t/recorded/a.yaml", "sim; recorded evidence", "a known failure stays known"},
		{cell("carriers", report.StatusPass), []report.EvidenceExchange{x("cassettes/t/recorded/a.yaml", 1, report.VerdictNotChecked, "carriers")},
			report.StatusPass, "simulated", "", "sim", "a check that did not run is no evidence"},
		{cell("resume", report.StatusPass), []report.EvidenceExchange{x("cassettes/t/recorded/a.yaml", 1, report.VerdictPass, "carriers")},
			report.StatusPass, "simulated", "", "sim", "evidence for another column"},
		{report.Cell{Target: "t", Scenario: "carriers", Status: report.StatusNA}, []report.EvidenceExchange{x("cassettes/t/recorded/a.yaml", 1, report.VerdictFail, "carriers")},
			report.StatusNA, "", "", "", "a scenario that does not apply stays n/a"},
	}
	for _, tc := range tests {
		m := &report.Matrix{Targets: []string{"t"}, Scenarios: []string{tc.cell.Scenario}, Cells: []report.Cell{tc.cell},
			Evidence: &report.Evidence{Exchanges: tc.exchanges}}
		Apply(m)
		c := m.Cells[0]
		if c.Status != tc.status || c.Provenance != tc.prov || c.Recorded != tc.recorded || !strings.HasPrefix(c.Detail, tc.detail) {
			t.Errorf("%s: got %s %q recorded %q detail %q", tc.reason, c.Status, c.Provenance, c.Recorded, c.Detail)
		}
	}
}
