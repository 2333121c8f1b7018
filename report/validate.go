package report

import (
	"fmt"
	"strconv"
	"strings"
)

// Validate checks the rules every renderer relies on and returns the first broken one, as an
// error starting with the JSON path in play (targets[i], scenarios[i], cells[i].field):
//
//  1. Every target id and scenario name is a lowercase id (words of a-z and 0-9 joined by
//     "-", "." or "_") and appears once in its list.
//  2. Every cell names a listed target and a listed scenario, has one of the seven statuses, and
//     appears once.
//  3. A cell's provenance is "simulated", "recorded", "profile" or "agent"; it is "" for n/a cells, and may be ""
//     for unverified and error cells (no cassette, or none that could be read, to judge by). A
//     recorded cell names the recorded cassettes behind it in Recorded — its own scenario
//     cassette (cassettes/<target>/<scenario>.yaml) or imported cassettes of its target that the
//     evidence section lists — and no other cell names any.
//  4. Every target × scenario has a cell.
//  5. No two cells share a detail anchor ([Cell.Anchor]).
//  6. When the matrix names its implementation, the name and version are
//     non-empty single lines, and so are the language and homepage when
//     given.
//  7. The evidence section, when there is one, follows the rules of its own (see
//     [Evidence]): one row per target, sorted exchanges, valid verdicts, counts that add up.
//
// The order of m.Cells is not checked: renderers walk targets × scenarios.
func (m *Matrix) Validate() error {
	if err := m.Implementation.check(); err != nil {
		return err
	}
	targets, err := checkIDs("targets", m.Targets)
	if err != nil {
		return err
	}
	scenarios, err := checkIDs("scenarios", m.Scenarios)
	if err != nil {
		return err
	}
	if m.Evidence != nil {
		if err := m.Evidence.validate(m.ownTargets()); err != nil {
			return err
		}
	}
	if err := m.validateAliases(targets); err != nil {
		return err
	}
	imported := m.Evidence.cassettes()
	seen := make(map[string]int, len(m.Cells))
	anchors := make(map[string]int, len(m.Cells))
	for i, c := range m.Cells {
		path := fmt.Sprintf("cells[%d]", i)
		if !targets[c.Target] {
			return fmt.Errorf("%s.target: %q is not listed in targets", path, c.Target)
		}
		if !scenarios[c.Scenario] {
			return fmt.Errorf("%s.scenario: %q is not listed in scenarios", path, c.Scenario)
		}
		if first, ok := seen[c.ID()]; ok {
			return fmt.Errorf("%s: duplicate cell %s (first at cells[%d])", path, c.ID(), first)
		}
		seen[c.ID()] = i
		if first, ok := anchors[c.Anchor()]; ok {
			return fmt.Errorf("%s: cell %s has the same detail anchor %q as cells[%d]", path, c.ID(), c.Anchor(), first)
		}
		anchors[c.Anchor()] = i
		if !c.Status.Valid() {
			return fmt.Errorf("%s.status: unknown status %q (want one of %s)", path, c.Status, statusList())
		}
		if err := checkProvenance(c); err != nil {
			return fmt.Errorf("%s.provenance: %w", path, err)
		}
	}
	for _, t := range m.Targets {
		for _, s := range m.Scenarios {
			if _, ok := seen[t+"/"+s]; !ok {
				return fmt.Errorf("cells: no cell for %s/%s", t, s)
			}
		}
	}
	for i, c := range m.Cells {
		if err := checkRecorded(c, imported); err != nil {
			return fmt.Errorf("cells[%d].recorded: %w", i, err)
		}
	}
	return nil
}

// ownTargets returns the targets' rows, without the rows of aliases
// ("id~N"), which are judged against their target's cassettes and have no
// recorded evidence of their own.
func (m *Matrix) ownTargets() []string {
	var out []string
	for _, t := range m.Targets {
		if !strings.Contains(t, "~") {
			out = append(out, t)
		}
	}
	return out
}

// checkIDs checks that ids are well-formed and unique, and returns them as a set.
// A target's row may be one of its aliases, "id~N" (N from 1).
func checkIDs(field string, ids []string) (map[string]bool, error) {
	set := make(map[string]bool, len(ids))
	for i, id := range ids {
		if base, n, alias := strings.Cut(id, "~"); field == "targets" && alias {
			if k, err := strconv.Atoi(n); err == nil && k > 0 && strconv.Itoa(k) == n && validID(base) {
				id = base
			}
		}
		if !validID(id) {
			return nil, fmt.Errorf("%s[%d]: %q is not a lowercase id (words of a-z and 0-9 joined by -, . or _)", field, i, id)
		}
		if set[ids[i]] {
			return nil, fmt.Errorf("%s[%d]: duplicate id %q", field, i, ids[i])
		}
		set[ids[i]] = true
	}
	return set, nil
}

// validID reports whether id is one or more words of [a-z0-9] joined by single "-", "." or "_".
func validID(id string) bool {
	if id == "" {
		return false
	}
	prevSep := true // no separator at the start
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			prevSep = false
		case r == '-' || r == '.' || r == '_':
			if prevSep {
				return false
			}
			prevSep = true
		default:
			return false
		}
	}
	return !prevSep
}

// checkProvenance applies rule 3 of [Matrix.Validate] to one cell.
func checkProvenance(c Cell) error {
	switch {
	case c.Provenance == ProvenanceSimulated || c.Provenance == ProvenanceRecorded || c.Provenance == ProvenanceProfile || c.Provenance == ProvenanceAgent:
		if c.Status == StatusNA {
			return fmt.Errorf("%q on an n/a cell (want \"\": nothing was judged)", c.Provenance)
		}
		return nil
	case c.Provenance == "":
		if c.Status == StatusNA || c.Status == StatusUnverified || c.Status == StatusError {
			return nil
		}
		return fmt.Errorf("empty on a %s cell (want %q, %q or %q)", c.Status, ProvenanceSimulated, ProvenanceRecorded, ProvenanceProfile)
	}
	return fmt.Errorf("unknown provenance %q (want %q, %q, %q or %q)", c.Provenance, ProvenanceSimulated, ProvenanceRecorded, ProvenanceProfile, ProvenanceAgent)
}

// checkRecorded applies the Recorded part of rule 3 of [Matrix.Validate] to one cell.
func checkRecorded(c Cell, imported map[string]bool) error {
	if c.Provenance != ProvenanceRecorded {
		if c.Recorded != "" {
			return fmt.Errorf("%q on a %s cell: only a recorded cell names recorded cassettes", c.Recorded, orEmpty(c.Provenance))
		}
		return nil
	}
	if c.Recorded == "" {
		return fmt.Errorf("empty on a recorded cell: name the recorded cassette behind it")
	}
	own := "cassettes/" + c.Target + "/" + c.Scenario + ".yaml"
	for _, p := range strings.Split(c.Recorded, ", ") {
		if p != own && !(imported[p] && strings.HasPrefix(p, "cassettes/"+c.Target+"/recorded/")) {
			return fmt.Errorf("%q is neither the cell's own cassette (%s) nor an imported cassette of %s the evidence section lists", p, own, c.Target)
		}
	}
	return nil
}

func orEmpty(s string) string {
	if s == "" {
		return "provenance-less"
	}
	return s
}

// statusList returns the seven statuses joined for error messages.
func statusList() string {
	names := make([]string, 0, len(Statuses()))
	for _, s := range Statuses() {
		names = append(names, string(s))
	}
	return strings.Join(names, ", ")
}

// check applies rule 6 of [Matrix.Validate]; a nil implementation passes.
func (i *Implementation) check() error {
	if i == nil {
		return nil
	}
	for _, f := range []struct {
		name, value string
		required    bool
	}{{"name", i.Name, true}, {"version", i.Version, true}, {"language", i.Language, false}, {"homepage", i.Homepage, false}} {
		switch {
		case strings.TrimSpace(f.value) == "" && f.required:
			return fmt.Errorf("implementation.%s: empty (want the implementation's %s)", f.name, f.name)
		case strings.ContainsAny(f.value, "\r\n"):
			return fmt.Errorf("implementation.%s: %q is not one line", f.name, f.value)
		}
	}
	return nil
}
