// The table every scenario file declares: one entry per target, one spec
// per cell, and how a cell's status becomes the spec's outcome.
package suites_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// scenarioTable declares the table of one scenario: an entry
// "<target>/<scenario>" per target of matrix.yaml, labelled
// "target:<id>" and "scenario:<name>".
func scenarioTable(name string) bool {
	GinkgoHelper()
	entries := make([]any, 0, len(targetIDs)+2)
	entries = append(entries, Label("scenario:"+name), cellSpec(name))
	for _, id := range targetIDs {
		entries = append(entries, Entry(id+"/"+name, id, Label("target:"+id)))
	}
	return DescribeTable(name, entries...)
}

// cellSpec returns the body of a scenario's specs: run the cell through
// the shared runner, attach it to the report, then turn its status into
// the spec's outcome.
func cellSpec(name string) func(SpecContext, string) {
	return func(ctx SpecContext, id string) {
		sc, ok := scenario.ByName(name)
		Expect(ok).To(BeTrue(), "scenario %q is not in scenario.All()", name)
		target, ok := runner.Matrix.Target(id)
		Expect(ok).To(BeTrue(), "target %q is not in %s", id, runner.Matrix.Path)
		cell := runner.Cell(ctx, target, sc)
		AddReportEntry(cellEntry, cell, ReportEntryVisibilityNever)
		outcome(cell)
	}
}

// outcome ends the spec the way the cell's status asks.
func outcome(c report.Cell) {
	switch c.Status {
	case report.StatusPass:
	case report.StatusAdvisory, report.StatusKnownFail:
		fmt.Fprintf(GinkgoWriter, "%s: %s (%s)\n", c.ID(), c.Status, c.Detail)
	case report.StatusNA:
		Skip("n/a: " + c.Detail)
	case report.StatusUnverified:
		Skip("unverified: " + cellMessage(c))
	case report.StatusFail:
		Fail(cellMessage(c))
	case report.StatusError:
		Fail("not judged: " + cellMessage(c))
	default:
		Fail(fmt.Sprintf("%s: unknown status %q", c.ID(), c.Status))
	}
}

// cellMessage is a cell's detail followed by each non-empty field on its
// own indented lines: expected, actual, provider error, cassette.
func cellMessage(c report.Cell) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", c.ID(), c.Detail)
	for _, f := range []struct{ name, value string }{
		{"expected", c.Expected},
		{"actual", c.Actual},
		{"provider error", c.ProviderError},
		{"cassette", c.Cassette},
	} {
		if v := strings.TrimSpace(f.value); v != "" {
			fmt.Fprintf(&b, "\n  %s: %s", f.name, strings.ReplaceAll(v, "\n", "\n    "))
		}
	}
	return b.String()
}
