package gate

import (
	"path/filepath"
	"strings"

	"github.com/replaycheck/replaycheck/report"
)

// A Result is the outcome of a gate run.
type Result struct {
	// BasePath and HeadPath name the two tables (a file, or ref:path).
	BasePath, HeadPath string
	// CassetteDir is the cassette directory judged by.
	CassetteDir string
	Base, Head  *report.Matrix
	Changes     []Change
	// Removed names the targets and aliases the base table has and the head
	// does not: their cells are no longer judged.
	Removed []string
	// Uncovered are the head table's coverage findings: match entries no
	// target or alias reaches and nothing declares unreachable. Each fails
	// the gate. The caller fills them (see mutate.Cover).
	Uncovered []Finding
	// Unchecked are the routes whose decision the head table changes
	// although no target or alias takes them, so no recorded cell judges
	// the change. They are named, and do not fail the gate. The caller
	// fills them.
	Unchecked []RouteChange
	// Edits are the line ranges of the head table that differ from the
	// base table, for annotations where a pull request's diff shows them.
	Edits []Edit
}

// A Finding is a problem of the head table at a line that no cell shows.
type Finding struct {
	Line    int
	Message string
}

// A RouteChange is one way the head table decides differently for routes
// no target or alias takes: the decision change, and the routes it
// applies to.
type RouteChange struct {
	// Change is the api mode and the decision change: "chat: carriers
	// reasoning_content -> reasoning_content,reasoning_details".
	Change string
	// Routes name the routes, the first at each host first: "chat
	// (custom, https://unlisted.example.com, unlisted-model)".
	Routes []string
	// Hosts counts the hosts of the routes.
	Hosts int
}

// UncheckedRoutes counts the routes of r.Unchecked.
func (r *Result) UncheckedRoutes() int {
	n := 0
	for _, u := range r.Unchecked {
		n += len(u.Routes)
	}
	return n
}

// A NotJudged cell is one the gate could not judge: a cell of either run
// that errs (its input could not be read), or a head cell that is
// unverified although the table did not change it (its cassette is
// missing or holds no answer to what the route sends).
type NotJudged struct {
	// Side is "base" or "head".
	Side string
	Cell report.Cell
}

// NotJudged lists the cells the gate could not judge, head first. A gate
// with any error cell is incomplete; one with an unverified cell judged
// less than it was asked to.
func (r *Result) NotJudged() []NotJudged {
	listed := map[string]bool{}
	for _, c := range r.Changes {
		listed[c.Target+"/"+c.Scenario] = true
	}
	var out []NotJudged
	for _, c := range r.Head.Cells {
		if c.Status == report.StatusError || (c.Status == report.StatusUnverified && !listed[c.Target+"/"+c.Scenario]) {
			out = append(out, NotJudged{Side: "head", Cell: r.located(c)})
		}
	}
	for _, c := range r.Base.Cells {
		if c.Status == report.StatusError {
			out = append(out, NotJudged{Side: "base", Cell: r.located(c)})
		}
	}
	return out
}

// located returns c with its cassette named under the directory judged by
// (a cell names it under cassettes/, as the reports do).
func (r *Result) located(c report.Cell) report.Cell {
	if c.Cassette != "" && r.CassetteDir != "" {
		c.Cassette = filepath.Join(r.CassetteDir, strings.TrimPrefix(c.Cassette, "cassettes/"))
	}
	return c
}

// Errors counts the cells of either run that could not be judged (status
// error): a gate with any is incomplete.
func (r *Result) Errors() int {
	n := 0
	for _, c := range r.NotJudged() {
		if c.Cell.Status == report.StatusError {
			n++
		}
	}
	return n
}

// Regressions returns the changes that fail the gate.
func (r *Result) Regressions() []Change {
	var out []Change
	for _, c := range r.Changes {
		if c.Kind == Regression {
			out = append(out, c)
		}
	}
	return out
}

// Passed reports whether the gate passes: no regression, no coverage
// finding, and every cell judged.
func (r *Result) Passed() bool {
	return len(r.Regressions()) == 0 && len(r.Uncovered) == 0 && len(r.NotJudged()) == 0
}
