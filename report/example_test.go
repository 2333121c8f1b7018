package report_test

import (
	"os"

	"github.com/replaycheck/replaycheck/report"
)

// Example renders a two-cell matrix as the terminal grid replaycheck run prints.
func Example() {
	m := &report.Matrix{
		Targets:   []string{"deepseek"},
		Scenarios: []string{"carriers", "missing-echo"},
		Cells: []report.Cell{
			{Target: "deepseek", Scenario: "carriers", Status: report.StatusPass,
				Provenance: report.ProvenanceRecorded, Detail: "every variant the row sends was accepted",
				Recorded: "cassettes/deepseek/carriers.yaml"},
			{Target: "deepseek", Scenario: "missing-echo", Status: report.StatusFail,
				Provenance: report.ProvenanceSimulated, Detail: "a bare tool turn went out without the pad"},
		},
	}
	if err := report.WriteTable(os.Stdout, m, false); err != nil {
		panic(err)
	}
	// Output:
	// target    carriers    missing-echo
	// --------  ----------  ------------
	// deepseek  pass (rec)  FAIL (sim)
	//
	// deepseek/missing-echo: FAIL (simulated): a bare tool turn went out without the pad
	//
	// 1 target × 2 scenarios: 1 pass, 1 fail, 0 unverified, 0 n/a, 0 known-fail, 0 advisory, 0 error (of the fails: 1 on documented evidence, 0 on partial or unconfirmed profile rules, 0 SPEC invariants the provider accepted)
}
