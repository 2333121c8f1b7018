// Building the matrix from the suite's report, writing the report files
// and checking the committed ones.
package suites_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// cellEntry is the name of the report entry each spec attaches its cell to.
const cellEntry = "cell"

// committedMatrix is the committed matrix.json, relative to the repository
// root.
const committedMatrix = "reports/matrix.json"

// collectMatrix builds the matrix from the cells the specs attached,
// naming the implementation checked: every target of matrix.yaml in file
// order, every scenario in scenario.All()
// order, and the cells that ran, sorted the same way. Specs filtered out
// leave their cells missing, which [report.Matrix.Validate] reports.
func collectMatrix(r types.Report, targets []matrix.Target, impl report.Implementation) (*report.Matrix, error) {
	m := &report.Matrix{Implementation: &impl}
	for _, t := range targets {
		m.Targets = append(m.Targets, t.ID)
	}
	for _, sc := range scenario.All() {
		m.Scenarios = append(m.Scenarios, sc.Name)
	}
	byID := map[string]int{}
	for _, spec := range r.SpecReports {
		for _, e := range spec.ReportEntries {
			if e.Name != cellEntry {
				continue
			}
			c, err := entryCell(e)
			if err != nil {
				return nil, fmt.Errorf("%s: report entry %q: %w", spec.FullText(), e.Name, err)
			}
			if i, seen := byID[c.ID()]; seen {
				m.Cells[i] = c // a retried spec: its last attempt counts
				continue
			}
			byID[c.ID()] = len(m.Cells)
			m.Cells = append(m.Cells, c)
		}
	}
	m.Sort(m.Targets, m.Scenarios)
	return m, nil
}

// entryCell returns the cell of a report entry: the value itself in a
// serial run, its JSON form when the entry crossed from another parallel
// process.
func entryCell(e types.ReportEntry) (report.Cell, error) {
	if c, ok := e.GetRawValue().(report.Cell); ok {
		return c, nil
	}
	var c report.Cell
	if err := json.Unmarshal([]byte(e.Value.AsJSON), &c); err != nil {
		return report.Cell{}, fmt.Errorf("decode cell: %w", err)
	}
	return c, nil
}

// compareCommitted checks m against the committed matrix.json at path, if
// there is one: byte for byte when m is the whole matrix, cell by cell for
// the cells that ran otherwise.
func compareCommitted(path string, m *report.Matrix, complete bool) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	committed, err := report.ReadJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	stale := func(what string) error {
		return fmt.Errorf("%s is stale: %s; regenerate it with make reports", path, what)
	}
	if complete {
		// The quality curve is not run here (make reports runs it, and
		// scenario's TestQualityCurve checks it): the committed one stands.
		now, curve := bytes.Buffer{}, m.Curve
		m.Curve = committed.Curve
		err := report.WriteJSON(&now, m)
		m.Curve = curve
		if err != nil {
			return err
		}
		if bytes.Equal(now.Bytes(), data) {
			return nil
		}
		if !slices.Equal(committed.Targets, m.Targets) || !slices.Equal(committed.Scenarios, m.Scenarios) {
			return stale(fmt.Sprintf("it lists targets %v and scenarios %v, this run %v and %v",
				committed.Targets, committed.Scenarios, m.Targets, m.Scenarios))
		}
	}
	var diffs []string
	for _, c := range m.Cells {
		was, ok := committed.Cell(c.Target, c.Scenario)
		switch {
		case !ok:
			diffs = append(diffs, c.ID()+": not in the committed matrix")
		case was != c:
			diffs = append(diffs, describeChange(was, c))
		}
	}
	switch {
	case len(diffs) > 0:
		const shown = 5
		n, more := len(diffs), ""
		if n > shown {
			more = fmt.Sprintf("\n  … and %d more", n-shown)
			diffs = diffs[:shown]
		}
		return stale(fmt.Sprintf("%d cells differ from this run:\n  %s%s", n, strings.Join(diffs, "\n  "), more))
	case complete:
		return stale("the cells agree but the bytes differ (hand-edited?)")
	}
	return nil
}

// describeChange says how a cell differs from its committed version.
func describeChange(was, now report.Cell) string {
	if was.Status != now.Status || was.Provenance != now.Provenance {
		return fmt.Sprintf("%s: committed %s, now %s", now.ID(), was.Text(), now.Text())
	}
	return fmt.Sprintf("%s: %s, with a different detail (now %q)", now.ID(), now.Text(), now.Detail)
}
