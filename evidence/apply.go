package evidence

import (
	"fmt"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/report"
)

// Apply marks the cells of m that its evidence section is evidence for.
// A check is evidence for a cell when it names the cell's scenario
// ([report.Check.Scenarios]) for the cell's target and judged something
// (pass, advisory or fail). Such a cell, unless its scenario does not
// apply (n/a), becomes recorded, naming the imported cassettes in
// Recorded, and:
//
//   - a failing check fails a cell that passed (or was advisory): what the
//     real provider accepted contradicts what the engine sends, and the
//     cell says which exchange and finding;
//   - an advisory check makes a passing carriers cell advisory (the
//     matrix's advisory: accepted, but the table sends less than the
//     provider is recorded to accept); on other columns it backs the cell
//     without changing it;
//   - otherwise the status stays, and the detail names the exchanges
//     behind it.
//
// A known-fail, fail or unverified cell keeps its status and gains the
// evidence in its detail.
func Apply(m *report.Matrix) {
	if m.Evidence == nil {
		return
	}
	for i := range m.Cells {
		c := &m.Cells[i]
		if c.Status == report.StatusNA {
			continue
		}
		var ids, cassettes []string
		var fail, advisory *report.EvidenceExchange
		var failCheck, advisoryCheck string
		for j := range m.Evidence.Exchanges {
			x := &m.Evidence.Exchanges[j]
			if x.Target != c.Target {
				continue
			}
			for _, k := range []struct {
				name  string
				check report.Check
			}{{"capture", x.Capture}, {"reproduction", x.Reproduction}} {
				if !slices.Contains(k.check.Scenarios, c.Scenario) {
					continue
				}
				switch k.check.Verdict {
				case report.VerdictFail:
					if fail == nil {
						fail, failCheck = x, k.name
					}
				case report.VerdictAdvisory:
					if advisory == nil {
						advisory, advisoryCheck = x, k.name
					}
				case report.VerdictPass:
				default:
					continue
				}
				if !slices.Contains(ids, x.ID()) {
					ids = append(ids, x.ID())
				}
				if !slices.Contains(cassettes, x.Cassette) {
					cassettes = append(cassettes, x.Cassette)
				}
			}
		}
		if len(ids) == 0 {
			continue
		}
		if c.Provenance == report.ProvenanceRecorded && c.Recorded != "" {
			cassettes = append(strings.Split(c.Recorded, ", "), cassettes...)
		}
		c.Provenance, c.Recorded = report.ProvenanceRecorded, strings.Join(cassettes, ", ")
		note := fmt.Sprintf("recorded evidence: %s", strings.Join(ids, ", "))
		judged := c.Status == report.StatusPass || c.Status == report.StatusAdvisory
		switch {
		case fail != nil && judged:
			ch := check(fail, failCheck)
			c.Status = report.StatusFail
			c.Detail = fmt.Sprintf("recorded evidence contradicts it: %s %s failed: %s", fail.ID(), failCheck, ch.Detail)
			c.Expected = "what the recorded client sent and the provider accepted"
			c.Actual = firstFinding(ch)
			c.Cassette = fail.Cassette
		case advisory != nil && c.Status == report.StatusPass && c.Scenario == "carriers":
			c.Status = report.StatusAdvisory
			c.Detail = fmt.Sprintf("recorded evidence: %s %s is advisory: %s", advisory.ID(), advisoryCheck, check(advisory, advisoryCheck).Detail)
		default:
			c.Detail = strings.TrimPrefix(c.Detail+"; "+note, "; ")
		}
	}
}

func check(x *report.EvidenceExchange, name string) report.Check {
	if name == "capture" {
		return x.Capture
	}
	return x.Reproduction
}

// firstFinding describes the first failing finding of a check.
func firstFinding(c report.Check) string {
	for _, f := range c.Findings {
		if f.Verdict == report.VerdictFail {
			return fmt.Sprintf("%s: engine %s, recorded %s: %s", f.Path, f.Engine, f.Recorded, f.Why)
		}
	}
	return c.Detail
}
