package report

import (
	"fmt"
	"strings"
)

// Label returns the status as the grid shows it: the status itself, except "FAIL" and "ERROR"
// in capitals so a failure or a cell that could not be judged stands out in plain text.
func (s Status) Label() string {
	switch s {
	case StatusFail, StatusError:
		return strings.ToUpper(string(s))
	}
	return string(s)
}

// Meaning returns one sentence saying what the status means, for legends.
func (s Status) Meaning() string {
	switch s {
	case StatusPass:
		return "the provider accepted the request and the scenario's assertions hold"
	case StatusFail:
		return "the provider refused the request, or an invariant broke"
	case StatusUnverified:
		return "no recorded interaction matches this exact request: record it"
	case StatusNA:
		return "the scenario does not apply to this target"
	case StatusKnownFail:
		return "declared failing in matrix.yaml with a reason; still run, and the build fails if it starts passing"
	case StatusAdvisory:
		return "accepted, but the table sends less than the provider is recorded to accept and read"
	case StatusError:
		return "not judged: its input could not be read, or the implementation under test crashed, timed out or answered malformed output"
	}
	return "unknown status"
}

// provenanceMarker returns the short provenance marker shown next to a status: "sim", "rec",
// "prof", "agent", or "" when the cell has no provenance.
func provenanceMarker(provenance string) string {
	switch provenance {
	case ProvenanceSimulated:
		return "sim"
	case ProvenanceRecorded:
		return "rec"
	case ProvenanceProfile:
		return "prof"
	case ProvenanceAgent:
		return "agent"
	}
	return ""
}

// Text returns the cell as the text grids show it: "pass (rec)", "FAIL (sim)", "n/a".
func (c Cell) Text() string {
	if p := provenanceMarker(c.Provenance); p != "" {
		return c.Status.Label() + " (" + p + ")"
	}
	return c.Status.Label()
}

// hasDetail reports whether the cell gets an entry in a details section: every cell that is
// neither pass nor n/a, and, when withNA is set, n/a cells that say why.
func (c Cell) hasDetail(withNA bool) bool {
	switch c.Status {
	case StatusPass:
		return false
	case StatusNA:
		return withNA && strings.TrimSpace(c.Detail) != ""
	}
	return true
}

// Summary returns the one-line count of the matrix, listing all seven statuses:
// "31 targets × 9 scenarios: 180 pass, 2 fail, 4 unverified, 80 n/a, 1 known-fail, 12 advisory".
func (m *Matrix) Summary() string {
	return m.shape() + ": " + countsText(m.Counts()) + m.failClassesText()
}

// failClassesText says what the failing cells rest on, when some fail.
func (m *Matrix) failClassesText() string {
	documented, guessed, invariant := m.FailClasses()
	if documented+guessed+invariant == 0 {
		return ""
	}
	invariants := plural(invariant, "SPEC invariant")
	return fmt.Sprintf(" (of the fails: %d on documented evidence, %d on partial or unconfirmed profile rules, %s the provider accepted)", documented, guessed, invariants)
}

// countsText is every status's count, in status order: "5 pass, 0 fail, …".
func countsText(counts map[Status]int) string {
	parts := make([]string, 0, len(Statuses()))
	for _, s := range Statuses() {
		parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
	}
	return strings.Join(parts, ", ")
}

// shape returns the size of the matrix: "31 targets × 9 scenarios".
func (m *Matrix) shape() string {
	return plural(len(m.Targets), "target") + " × " + plural(len(m.Scenarios), "scenario")
}

// plural returns "1 target" or "n targets".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// profileJudged reports whether some cell's provenance is profile.
func (m *Matrix) profileJudged() bool {
	for _, c := range m.Cells {
		if c.Provenance == ProvenanceProfile {
			return true
		}
	}
	return false
}
