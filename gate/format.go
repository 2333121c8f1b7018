package gate

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/replaycheck/replaycheck/report"
)

// Formats lists the output formats of a gate result, for usage text.
var Formats = []string{"text", "markdown", "json", "github"}

// Writer returns the writer of a format, and whether there is one. "md"
// is another name for "markdown".
func Writer(format string) (func(io.Writer, *Result) error, bool) {
	switch format {
	case "text":
		return WriteText, true
	case "markdown", "md":
		return WriteMarkdown, true
	case "json":
		return WriteJSON, true
	case "github":
		return WriteGitHub, true
	}
	return nil, false
}

// shownRoutes is how many routes of each unchecked decision change the
// text, Markdown and GitHub forms name; the JSON form names every one.
const shownRoutes = 3

// unchecked says how many routes change their decision with no cell to
// judge them.
func (r *Result) unchecked() string {
	return plural(r.UncheckedRoutes(), "route changes its decision", "routes change their decision") + " with no target or alias to judge them"
}

// uncheckedLine is one decision change and a few of its routes.
func uncheckedLine(u RouteChange) string {
	s := u.Change + ": " + plural(len(u.Routes), "route", "routes") + " at " + plural(u.Hosts, "host", "hosts") + ", e.g. " + list(u.Routes[:min(len(u.Routes), shownRoutes)], shownRoutes)
	if len(u.Routes) > shownRoutes {
		s += " (--format json lists every one)"
	}
	return s
}

// byKind returns the changes grouped regressions first, then additions,
// improvements and other changes, each group in matrix order.
func (r *Result) byKind() []Change {
	var out []Change
	for _, kind := range []string{Regression, Added, Improvement, Changed} {
		for _, c := range r.Changes {
			if c.Kind == kind {
				out = append(out, c)
			}
		}
	}
	return out
}

// addedCells counts the changes that are cells of added targets or aliases.
func (r *Result) addedCells() int {
	n := 0
	for _, c := range r.Changes {
		if c.New {
			n++
		}
	}
	return n
}

// verdict is the last line of every format.
func (r *Result) verdict() string {
	var fails []string
	if n := len(r.Regressions()); n > 0 {
		fails = append(fails, plural(n, "regression", "regressions"))
	}
	if n := len(r.Uncovered); n > 0 {
		fails = append(fails, plural(n, "table entry no target or alias reaches", "table entries no target or alias reaches"))
	}
	notJudged := len(r.NotJudged())
	switch {
	case r.Errors() > 0:
		return fmt.Sprintf("gate: %s (error): the gate is incomplete", plural(r.Errors(), "cell could not be judged", "cells could not be judged"))
	case len(fails) > 0:
		return "gate: " + strings.Join(fails, ", ")
	case notJudged > 0:
		return fmt.Sprintf("gate: %s (unverified): record the cassettes they name", plural(notJudged, "cell not judged", "cells not judged"))
	case len(r.Unchecked) > 0:
		return "gate: no regression, but " + r.unchecked()
	}
	return "gate: no regression"
}

// plural is "1 thing" or "n things".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// header is the first line of the text form.
func (r *Result) header() string {
	s := fmt.Sprintf("gate: %s -> %s: %s", r.BasePath, r.HeadPath, plural(len(r.Changes)-r.addedCells(), "cell changed", "cells changed"))
	if n := r.addedCells(); n > 0 {
		s += ", " + plural(n, "cell added", "cells added")
	}
	return s
}

// notJudgedLine names a cell the gate could not judge and why, with the
// file and position its detail gives.
func notJudgedLine(n NotJudged) string {
	s := fmt.Sprintf("%s %s/%s: %s", n.Side, n.Cell.Target, n.Cell.Scenario, n.Cell.Status)
	if n.Cell.Cassette != "" && !strings.Contains(n.Cell.Detail, n.Cell.Cassette) {
		s += " (" + n.Cell.Cassette + ")"
	}
	return s + ": " + OneLine(n.Cell.Detail)
}

// WriteText writes the result for a terminal: one block per changed or
// added cell, then the cells not judged, the coverage findings, the routes
// no cell judges and the targets removed.
func WriteText(w io.Writer, r *Result) error {
	var b strings.Builder
	b.WriteString(r.header() + "\n")
	const indent = "            "
	for _, c := range r.byKind() {
		if c.New {
			fmt.Fprintf(&b, "%-11s %s/%s: %s (new)\n", strings.ToUpper(c.Kind), c.Target, c.Scenario, c.Head.Status)
		} else {
			fmt.Fprintf(&b, "%-11s %s/%s: %s -> %s\n", strings.ToUpper(c.Kind), c.Target, c.Scenario, c.Base.Status, c.Head.Status)
		}
		fmt.Fprintf(&b, indent+"route change: %s\n", c.Field)
		if c.Why != "" {
			fmt.Fprintf(&b, indent+"regression: %s\n", c.Why)
		}
		if c.Head.Detail != "" {
			fmt.Fprintf(&b, indent+"%s\n", c.Head.Detail)
		}
		if c.Head.ProviderError != "" {
			fmt.Fprintf(&b, indent+"provider error: %s\n", c.Head.ProviderError)
		}
		if c.Head.Status == report.StatusUnverified && c.Head.Expected != "" {
			fmt.Fprintf(&b, indent+"%s\n", strings.ReplaceAll(c.Head.Expected, "\n", "\n"+indent))
		}
	}
	for _, n := range r.NotJudged() {
		fmt.Fprintf(&b, "%-11s %s\n", "NOT JUDGED", notJudgedLine(n))
	}
	for _, f := range r.Uncovered {
		fmt.Fprintf(&b, "%-11s %s:%d: %s\n", "UNCOVERED", r.HeadPath, f.Line, f.Message)
	}
	if len(r.Unchecked) > 0 {
		fmt.Fprintf(&b, "%-11s %s (add an alias that takes one):\n", "UNCHECKED", r.unchecked())
		for _, u := range r.Unchecked {
			fmt.Fprintf(&b, indent+"%s\n", uncheckedLine(u))
		}
	}
	for _, name := range r.Removed {
		fmt.Fprintf(&b, "%-11s %s: its cells are no longer judged\n", "REMOVED", name)
	}
	b.WriteString(r.verdict() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown writes the result as a Markdown section for a pull
// request or a CI job summary: the verdict, then a table of the changed
// cells with the route change and the provider's error, then what else
// the gate found.
func WriteMarkdown(w io.Writer, r *Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## replaycheck gate\n\n`%s` → `%s`: **%s**\n", r.BasePath, r.HeadPath, strings.TrimPrefix(r.verdict(), "gate: "))
	if len(r.Changes) == 0 {
		b.WriteString("\nNo cell of the matrix changed.\n")
	} else {
		b.WriteString("\n| change | cell | base → head | route change | why |\n| --- | --- | --- | --- | --- |\n")
		for _, c := range r.byKind() {
			why := c.Head.Detail
			if c.Why != "" {
				why = c.Why + ": " + why
			}
			if c.Head.ProviderError != "" {
				why += " — provider error: `" + strings.ReplaceAll(OneLine(c.Head.ProviderError), "`", "'") + "`"
			}
			from := string(c.Base.Status)
			if c.New {
				from = "(new)"
			}
			fmt.Fprintf(&b, "| %s | `%s/%s` (%s:%d) | %s → %s | %s | %s |\n",
				c.Kind, c.Target, c.Scenario, r.HeadPath, c.Line, from, c.Head.Status, CellText(c.Field), CellText(why))
		}
	}
	if nj := r.NotJudged(); len(nj) > 0 {
		b.WriteString("\n### Cells not judged\n\n")
		for _, n := range nj {
			fmt.Fprintf(&b, "- %s\n", strings.ReplaceAll(notJudgedLine(n), "`", "'"))
		}
	}
	if len(r.Uncovered) > 0 {
		b.WriteString("\n### Table entries no target or alias reaches\n\n")
		for _, f := range r.Uncovered {
			fmt.Fprintf(&b, "- `%s:%d`: %s\n", r.HeadPath, f.Line, f.Message)
		}
	}
	if len(r.Unchecked) > 0 {
		fmt.Fprintf(&b, "\n### %s\n\n", strings.ToUpper(r.unchecked()[:1])+r.unchecked()[1:])
		for _, u := range r.Unchecked {
			fmt.Fprintf(&b, "- %s\n", uncheckedLine(u))
		}
	}
	if len(r.Removed) > 0 {
		b.WriteString("\n### Removed (no longer judged)\n\n")
		for _, name := range r.Removed {
			fmt.Fprintf(&b, "- %s\n", name)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// OneLine folds a value onto one line.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// CellText makes a value safe inside a Markdown table cell: one line, its
// pipes escaped. The mutate report's tables use it too.
func CellText(s string) string { return strings.ReplaceAll(OneLine(s), "|", `\|`) }

// jsonChange is one changed cell in the JSON form.
type jsonChange struct {
	Kind          string `json:"kind"`
	Target        string `json:"target"`
	Scenario      string `json:"scenario"`
	Line          int    `json:"line"`
	New           bool   `json:"new,omitempty"`
	Base          string `json:"base"`
	Head          string `json:"head"`
	RouteChange   string `json:"route_change"`
	Why           string `json:"why,omitempty"`
	Detail        string `json:"detail"`
	ProviderError string `json:"provider_error,omitempty"`
}

// jsonNotJudged is one cell not judged in the JSON form.
type jsonNotJudged struct {
	Side     string `json:"side"`
	Target   string `json:"target"`
	Scenario string `json:"scenario"`
	Status   string `json:"status"`
	Cassette string `json:"cassette,omitempty"`
	Detail   string `json:"detail"`
}

// jsonFinding is one coverage finding in the JSON form.
type jsonFinding struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// jsonRoutes is one unchecked decision change in the JSON form.
type jsonRoutes struct {
	Change string   `json:"change"`
	Routes []string `json:"routes"`
	Hosts  int      `json:"hosts"`
}

// WriteJSON writes the result as one JSON object, a stable contract for
// scripts: {"base", "head", "changes": [...], "not_judged": [...],
// "uncovered": [...], "unchecked": [...], "removed": [...], "edits":
// [...], "regressions", "unchecked_routes", "passed"}. Every list is present, empty when
// there is nothing in it.
func WriteJSON(w io.Writer, r *Result) error {
	doc := struct {
		Base        string          `json:"base"`
		Head        string          `json:"head"`
		Changes     []jsonChange    `json:"changes"`
		NotJudged   []jsonNotJudged `json:"not_judged"`
		Uncovered   []jsonFinding   `json:"uncovered"`
		Unchecked   []jsonRoutes    `json:"unchecked"`
		Removed     []string        `json:"removed"`
		Edits       []Edit          `json:"edits"`
		Regressions int             `json:"regressions"`
		Routes      int             `json:"unchecked_routes"`
		Passed      bool            `json:"passed"`
	}{Base: r.BasePath, Head: r.HeadPath, Changes: []jsonChange{}, NotJudged: []jsonNotJudged{}, Uncovered: []jsonFinding{},
		Unchecked: []jsonRoutes{}, Removed: append([]string{}, r.Removed...), Edits: append([]Edit{}, r.Edits...),
		Regressions: len(r.Regressions()), Routes: r.UncheckedRoutes(), Passed: r.Passed()}
	for _, c := range r.byKind() {
		doc.Changes = append(doc.Changes, jsonChange{
			Kind: c.Kind, Target: c.Target, Scenario: c.Scenario, Line: c.Line, New: c.New,
			Base: string(c.Base.Status), Head: string(c.Head.Status), RouteChange: c.Field, Why: c.Why,
			Detail: c.Head.Detail, ProviderError: c.Head.ProviderError,
		})
	}
	for _, n := range r.NotJudged() {
		doc.NotJudged = append(doc.NotJudged, jsonNotJudged{Side: n.Side, Target: n.Cell.Target, Scenario: n.Cell.Scenario,
			Status: string(n.Cell.Status), Cassette: n.Cell.Cassette, Detail: n.Cell.Detail})
	}
	for _, f := range r.Uncovered {
		doc.Uncovered = append(doc.Uncovered, jsonFinding(f))
	}
	for _, u := range r.Unchecked {
		doc.Unchecked = append(doc.Unchecked, jsonRoutes(u))
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
