package report

import (
	"fmt"
	"strings"
)

// An AliasRow is one alias of a target: another (provider id, base URL,
// model) by which users reach the target's endpoint, judged against the
// target's cassettes with the route decision the table makes for it. Its
// cells carry the alias's name as their target ("deepseek~1").
type AliasRow struct {
	Name   string `json:"name"`
	Target string `json:"target"`
	// Route names the alias's route: "chat (llm-proxy,
	// https://llm-proxy.example.com/deepseek/v1, deepseek-v4-flash)".
	Route string `json:"route"`
	// Note says who reaches the endpoint this way.
	Note  string `json:"note,omitempty"`
	Cells []Cell `json:"cells"`
}

// AliasCells returns the cells of every alias row, in row order.
func (m *Matrix) AliasCells() []Cell {
	var out []Cell
	for _, a := range m.Aliases {
		out = append(out, a.Cells...)
	}
	return out
}

// aliasGrid returns the alias rows' cells, one row per alias.
func (m *Matrix) aliasGrid() [][]Cell {
	out := make([][]Cell, 0, len(m.Aliases))
	for _, a := range m.Aliases {
		out = append(out, a.Cells)
	}
	return out
}

// AliasCounts returns the number of alias cells per status.
func (m *Matrix) AliasCounts() map[Status]int {
	out := map[Status]int{}
	for _, c := range m.AliasCells() {
		out[c.Status]++
	}
	return out
}

// AliasSummary is the aliases' one-line count, "" without aliases:
// "87 aliases × 9 scenarios: 421 pass, 0 fail, …".
func (m *Matrix) AliasSummary() string {
	if len(m.Aliases) == 0 {
		return ""
	}
	aliases := fmt.Sprintf("%d aliases", len(m.Aliases))
	if len(m.Aliases) == 1 {
		aliases = "1 alias"
	}
	return aliases + " × " + plural(len(m.Scenarios), "scenario") + ": " + countsText(m.AliasCounts())
}

// validateAliases checks that each alias row names a target of the
// matrix, is named after it ("id~N"), and has one cell per scenario, in
// scenario order, each carrying the row's name.
func (m *Matrix) validateAliases(targets map[string]bool) error {
	seen := map[string]bool{}
	for i, a := range m.Aliases {
		p := fmt.Sprintf("aliases[%d]", i)
		switch {
		case !targets[a.Target]:
			return fmt.Errorf("%s.target: %q is not a target of the matrix", p, a.Target)
		case !strings.HasPrefix(a.Name, a.Target+"~"):
			return fmt.Errorf("%s.name: %q is not named after its target (%s~N)", p, a.Name, a.Target)
		case seen[a.Name]:
			return fmt.Errorf("%s.name: duplicate alias %q", p, a.Name)
		case len(a.Cells) != len(m.Scenarios):
			return fmt.Errorf("%s.cells: %d cells, want one per scenario (%d)", p, len(a.Cells), len(m.Scenarios))
		}
		seen[a.Name] = true
		for k, c := range a.Cells {
			if c.Target != a.Name || c.Scenario != m.Scenarios[k] || !c.Status.Valid() {
				return fmt.Errorf("%s.cells[%d]: %s/%s %q, want %s/%s with a known status", p, k, c.Target, c.Scenario, c.Status, a.Name, m.Scenarios[k])
			}
		}
	}
	return nil
}
