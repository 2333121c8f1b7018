package gate

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Formats lists the output formats of a gate result, for usage text.
var Formats = []string{"text", "markdown", "json", "github"}

// Writer returns the writer of a format, and whether there is one.
func Writer(format string) (func(io.Writer, *Result) error, bool) {
	switch format {
	case "text":
		return WriteText, true
	case "markdown":
		return WriteMarkdown, true
	case "json":
		return WriteJSON, true
	case "github":
		return WriteGitHub, true
	}
	return nil, false
}

// byKind returns the changes grouped regressions first, then
// improvements, then other changes, each group in matrix order.
func (r *Result) byKind() []Change {
	var out []Change
	for _, kind := range []string{Regression, Improvement, Changed} {
		for _, c := range r.Changes {
			if c.Kind == kind {
				out = append(out, c)
			}
		}
	}
	return out
}

// verdict is the last line of every format.
func (r *Result) verdict() string {
	switch n := len(r.Regressions()); {
	case r.NotJudged() > 0:
		return fmt.Sprintf("gate: %d cell(s) could not be judged (error): the gate is incomplete", r.NotJudged())
	case n > 0:
		return fmt.Sprintf("gate: %d regression(s)", n)
	}
	return "gate: no regression"
}

// WriteText writes the result for a terminal: one block per changed cell.
func WriteText(w io.Writer, r *Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "gate: %s -> %s: %d cells changed\n", r.BasePath, r.HeadPath, len(r.Changes))
	for _, c := range r.byKind() {
		fmt.Fprintf(&b, "%-11s %s/%s: %s -> %s\n", strings.ToUpper(c.Kind), c.Target, c.Scenario, c.Base.Status, c.Head.Status)
		fmt.Fprintf(&b, "            route change: %s\n", c.Field)
		if c.Why != "" {
			fmt.Fprintf(&b, "            regression: %s\n", c.Why)
		}
		if c.Head.Detail != "" {
			fmt.Fprintf(&b, "            %s\n", c.Head.Detail)
		}
		if c.Head.ProviderError != "" {
			fmt.Fprintf(&b, "            provider error: %s\n", c.Head.ProviderError)
		}
		if c.Head.Status == "unverified" && c.Head.Expected != "" {
			fmt.Fprintf(&b, "            %s\n", strings.ReplaceAll(c.Head.Expected, "\n", "\n            "))
		}
	}
	b.WriteString(r.verdict() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown writes the result as a Markdown section for a pull
// request or a CI job summary: the verdict, then a table of the changed
// cells with the route change and the provider's error.
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
			fmt.Fprintf(&b, "| %s | `%s/%s` (%s:%d) | %s → %s | %s | %s |\n",
				c.Kind, c.Target, c.Scenario, r.HeadPath, c.Line, c.Base.Status, c.Head.Status, CellText(c.Field), CellText(why))
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
	Base          string `json:"base"`
	Head          string `json:"head"`
	RouteChange   string `json:"route_change"`
	Why           string `json:"why,omitempty"`
	Detail        string `json:"detail"`
	ProviderError string `json:"provider_error,omitempty"`
}

// WriteJSON writes the result as one JSON object, a stable contract for
// scripts: {"base", "head", "changes": [...], "regressions", "not_judged",
// "passed"}.
func WriteJSON(w io.Writer, r *Result) error {
	doc := struct {
		Base        string       `json:"base"`
		Head        string       `json:"head"`
		Changes     []jsonChange `json:"changes"`
		Regressions int          `json:"regressions"`
		NotJudged   int          `json:"not_judged"`
		Passed      bool         `json:"passed"`
	}{Base: r.BasePath, Head: r.HeadPath, Changes: []jsonChange{}, Regressions: len(r.Regressions()), NotJudged: r.NotJudged()}
	doc.Passed = doc.Regressions == 0 && doc.NotJudged == 0
	for _, c := range r.byKind() {
		doc.Changes = append(doc.Changes, jsonChange{
			Kind: c.Kind, Target: c.Target, Scenario: c.Scenario, Line: c.Line,
			Base: string(c.Base.Status), Head: string(c.Head.Status), RouteChange: c.Field, Why: c.Why,
			Detail: c.Head.Detail, ProviderError: c.Head.ProviderError,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// WriteGitHub writes GitHub Actions workflow commands: an ::error
// annotation on the head table's line of each regressed target, a
// ::notice for each improvement, then the verdict. GitHub shows them on
// the pull request's diff of matrix.yaml.
func WriteGitHub(w io.Writer, r *Result) error {
	var b strings.Builder
	for _, c := range r.byKind() {
		level := "notice"
		switch c.Kind {
		case Regression:
			level = "error"
		case Changed:
			level = "warning"
		}
		msg := fmt.Sprintf("%s/%s: %s -> %s after %s. %s", c.Target, c.Scenario, c.Base.Status, c.Head.Status, c.Field, c.Head.Detail)
		if c.Why != "" {
			msg = fmt.Sprintf("%s/%s: %s -> %s after %s: %s. %s", c.Target, c.Scenario, c.Base.Status, c.Head.Status, c.Field, c.Why, c.Head.Detail)
		}
		if c.Head.ProviderError != "" {
			msg += "\nprovider error: " + c.Head.ProviderError
		}
		fmt.Fprintf(&b, "::%s file=%s,line=%d,title=%s::%s\n", level, ghProperty(r.HeadPath), c.Line,
			ghProperty(fmt.Sprintf("replaycheck %s: %s/%s", c.Kind, c.Target, c.Scenario)), ghData(msg))
	}
	if n := r.NotJudged(); n > 0 {
		fmt.Fprintf(&b, "::error title=replaycheck gate incomplete::%s\n", ghData(r.verdict()))
	}
	b.WriteString(r.verdict() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
