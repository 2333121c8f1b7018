package mutate

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/replaycheck/replaycheck/gate"
)

// Formats lists the output formats of a mutation report.
var Formats = []string{"text", "markdown", "json"}

// Writer returns the writer of a format, and whether there is one. "md"
// is another name for "markdown", as run takes it.
func Writer(format string) (func(io.Writer, *Report) error, bool) {
	switch format {
	case "text":
		return WriteText, true
	case "markdown", "md":
		return WriteMarkdown, true
	case "json":
		return WriteJSON, true
	}
	return nil, false
}

// Summary is the report's one-line verdict: the score, the counts and the
// coverage.
func (r *Report) Summary() string {
	seen, total := r.Score()
	c := r.Counts()
	stale := ""
	if len(r.Stale) > 0 {
		stale = fmt.Sprintf("; %d stale survivor declarations", len(r.Stale))
	}
	return fmt.Sprintf("mutate: %s: score %.1f%% (%d of %d non-equivalent mutants killed or noticed): %d killed, %d noticed, %d survived (%d waiting for a recording nobody has published), %d unverified, %d equivalent, %d invalid; coverage %d/%d entries reached, %d declared unreachable%s",
		r.Path, r.Percent(), seen, total, c[Killed], c[Noticed], c[Survived], c[Survived]-r.Undeclared(), c[Unverified], c[Equivalent], c[Invalid],
		r.Coverage.Reached(), len(r.Coverage), r.Coverage.Declared(), stale)
}

// listed returns the mutants a report lists one by one: survivors,
// unverified mutants, and the equivalent mutants that change some route's
// decision, where only a profile's `serves` declaration makes them
// equivalent (their why names it).
func (r *Report) listed() []Judged {
	var out []Judged
	for _, o := range []Outcome{Survived, Unverified, Equivalent} {
		for _, m := range r.Mutants {
			if m.Outcome == o && (o != Equivalent || m.Route != "") {
				out = append(out, m)
			}
		}
	}
	return out
}

// WriteText writes the report for a terminal: every survivor and
// unverified mutant with its matrix.yaml line, the edit and the route
// whose decision it changes unseen (a declared survivor with the
// recording it needs); every equivalent mutant that changes
// the decision of routes no host serves, with the declaration that says so;
// the stale survivor declarations; the entries nothing reaches; the
// verdict.
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	for _, m := range r.listed() {
		fmt.Fprintf(&b, "%-10s %s:%d: %s\n", strings.ToUpper(string(m.Outcome)), r.Path, m.Line, m.Edit)
		fmt.Fprintf(&b, "           route: %s: %s\n", m.Route, m.Change)
		if m.Cell != "" {
			fmt.Fprintf(&b, "           cell: %s\n", m.Cell)
		}
		fmt.Fprintf(&b, "           %s\n", gate.OneLine(m.Why))
		if m.Needs != "" {
			fmt.Fprintf(&b, "           needs (%s:%d): %s\n", r.Path, m.NeedsLine, gate.OneLine(m.Needs))
		}
	}
	for _, s := range r.Stale {
		fmt.Fprintf(&b, "STALE      %s:%d: survivors: %s: %s\n", r.Path, s.Line, s.Edit, s.staleText())
	}
	for _, e := range r.Coverage.Missing() {
		fmt.Fprintf(&b, "UNREACHED  %s:%d: %s: no target or alias reaches it (add an alias, or declare it under unreachable: with a reason)\n", r.Path, e.Line, e)
	}
	b.WriteString(r.Summary() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown writes the report as a Markdown section: the verdict, the
// counts per operator and the table of survivors.
func WriteMarkdown(w io.Writer, r *Report) error {
	var b strings.Builder
	seen, total := r.Score()
	fmt.Fprintf(&b, "## replaycheck mutate\n\n`%s`: **%.1f%%** of non-equivalent mutants killed or noticed (%d of %d); coverage **%d/%d** entries reached, %d declared unreachable.\n\n",
		r.Path, r.Percent(), seen, total, r.Coverage.Reached(), len(r.Coverage), r.Coverage.Declared())
	b.WriteString("| operator | killed | noticed | survived | unverified | equivalent | invalid |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, op := range operators {
		c := map[Outcome]int{}
		for _, m := range r.Mutants {
			if m.Operator == op.name {
				c[m.Outcome]++
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d |\n", op.name, c[Killed], c[Noticed], c[Survived], c[Unverified], c[Equivalent], c[Invalid])
	}
	if l := r.listed(); len(l) > 0 {
		b.WriteString("\n| outcome | line | edit | route | decision change | why | needs |\n| --- | --- | --- | --- | --- | --- | --- |\n")
		for _, m := range l {
			fmt.Fprintf(&b, "| %s | %s:%d | %s | %s | %s | %s | %s |\n", m.Outcome, r.Path, m.Line, gate.CellText(m.Edit), gate.CellText(m.Route), gate.CellText(m.Change), gate.CellText(m.Why), gate.CellText(m.Needs))
		}
	}
	if len(r.Stale) > 0 {
		b.WriteString("\nStale survivor declarations:\n\n")
		for _, s := range r.Stale {
			fmt.Fprintf(&b, "- `%s` (%s:%d): %s\n", s.Edit, r.Path, s.Line, s.staleText())
		}
	}
	if miss := r.Coverage.Missing(); len(miss) > 0 {
		b.WriteString("\nEntries no target or alias reaches:\n\n")
		for _, e := range miss {
			fmt.Fprintf(&b, "- `%s` (%s:%d)\n", e, r.Path, e.Line)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// jsonMutant is one mutant in the JSON form.
type jsonMutant struct {
	ID       int    `json:"id"`
	Operator string `json:"operator"`
	Edit     string `json:"edit"`
	Line     int    `json:"line"`
	Outcome  string `json:"outcome"`
	Route    string `json:"route,omitempty"`
	Change   string `json:"change,omitempty"`
	Cell     string `json:"cell,omitempty"`
	Why      string `json:"why,omitempty"`
	Needs    string `json:"needs,omitempty"`
}

// jsonStale is one stale survivor declaration in the JSON form.
type jsonStale struct {
	Edit    string `json:"edit"`
	Line    int    `json:"line"`
	Outcome string `json:"outcome"`
}

// jsonEntry is one match entry's coverage in the JSON form.
type jsonEntry struct {
	Entry       string   `json:"entry"`
	Value       string   `json:"value"`
	Line        int      `json:"line"`
	ReachedBy   []string `json:"reached_by"`
	Unreachable string   `json:"unreachable,omitempty"`
}

// WriteJSON writes the report as one JSON object, a stable contract for
// scripts: {"path", "score", "seen", "total", "counts", "mutants",
// "stale", "coverage": {"reached", "declared", "total", "entries"}}; a
// stale declaration's outcome is "" when no mutant has its edit.
func WriteJSON(w io.Writer, r *Report) error {
	seen, total := r.Score()
	type coverage struct {
		Reached  int         `json:"reached"`
		Declared int         `json:"declared"`
		Total    int         `json:"total"`
		Entries  []jsonEntry `json:"entries"`
	}
	doc := struct {
		Path     string         `json:"path"`
		Score    float64        `json:"score"`
		Seen     int            `json:"seen"`
		Total    int            `json:"total"`
		Counts   map[string]int `json:"counts"`
		Probes   int            `json:"probes"`
		Routes   int            `json:"routes"`
		Mutants  []jsonMutant   `json:"mutants"`
		Stale    []jsonStale    `json:"stale"`
		Coverage coverage       `json:"coverage"`
	}{Path: r.Path, Score: r.Percent(), Seen: seen, Total: total, Counts: map[string]int{}, Probes: r.Probes, Routes: r.Routes,
		Mutants:  []jsonMutant{},
		Stale:    []jsonStale{},
		Coverage: coverage{Reached: r.Coverage.Reached(), Declared: r.Coverage.Declared(), Total: len(r.Coverage), Entries: []jsonEntry{}}}
	for _, o := range Outcomes {
		doc.Counts[string(o)] = r.Counts()[o]
	}
	for _, m := range r.Mutants {
		doc.Mutants = append(doc.Mutants, jsonMutant{ID: m.ID, Operator: m.Operator, Edit: m.Edit, Line: m.Line, Outcome: string(m.Outcome),
			Route: m.Route, Change: m.Change, Cell: m.Cell, Why: m.Why, Needs: m.Needs})
	}
	for _, st := range r.Stale {
		doc.Stale = append(doc.Stale, jsonStale{Edit: st.Edit, Line: st.Line, Outcome: string(st.Outcome)})
	}
	for _, e := range r.Coverage {
		je := jsonEntry{Entry: e.Entry.Name(), Value: e.Entry.Value, Line: e.Entry.Line, ReachedBy: append([]string{}, e.By...)}
		if e.Declared != nil {
			je.Unreachable = e.Declared.Reason
		}
		doc.Coverage.Entries = append(doc.Coverage.Entries, je)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
