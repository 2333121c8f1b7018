package gate

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// WriteGitHub writes GitHub Actions workflow commands: an annotation on
// each edited line range of the head table (where a pull request's diff
// shows it) summing up the verdict, an ::error on the head table's line of
// each regressed target or alias, a ::notice for each improvement or added
// cell, an ::error for each cell not judged (on its cassette) and each
// table entry nothing reaches, a ::warning for the routes no cell judges,
// then the verdict.
func WriteGitHub(w io.Writer, r *Result) error {
	var b strings.Builder
	head := ghProperty(r.HeadPath)
	for _, e := range r.Edits {
		fmt.Fprintf(&b, "::%s file=%s,line=%d,endLine=%d,title=%s::%s\n", r.editLevel(), head, e.From, e.To,
			ghProperty("replaycheck gate: this edit of the route table"), ghData(r.editSummary()))
	}
	for _, c := range r.byKind() {
		level := "notice"
		switch c.Kind {
		case Regression:
			level = "error"
		case Changed:
			level = "warning"
		}
		from := string(c.Base.Status)
		if c.New {
			from = "(new)"
		}
		msg := fmt.Sprintf("%s/%s: %s -> %s after %s. %s", c.Target, c.Scenario, from, c.Head.Status, c.Field, c.Head.Detail)
		if c.Why != "" {
			msg = fmt.Sprintf("%s/%s: %s -> %s after %s: %s. %s", c.Target, c.Scenario, from, c.Head.Status, c.Field, c.Why, c.Head.Detail)
		}
		if c.Head.ProviderError != "" {
			msg += "\nprovider error: " + c.Head.ProviderError
		}
		fmt.Fprintf(&b, "::%s file=%s,line=%d,title=%s::%s\n", level, head, c.Line,
			ghProperty(fmt.Sprintf("replaycheck %s: %s/%s", c.Kind, c.Target, c.Scenario)), ghData(msg))
	}
	for _, n := range r.NotJudged() {
		file := ""
		if n.Cell.Cassette != "" {
			file = "file=" + ghProperty(n.Cell.Cassette) + ","
		}
		fmt.Fprintf(&b, "::error %stitle=%s::%s\n", file, ghProperty(fmt.Sprintf("replaycheck not judged: %s/%s", n.Cell.Target, n.Cell.Scenario)), ghData(notJudgedLine(n)))
	}
	for _, f := range r.Uncovered {
		fmt.Fprintf(&b, "::error file=%s,line=%d,title=%s::%s\n", head, f.Line, ghProperty("replaycheck coverage: no target or alias reaches this entry"), ghData(f.Message))
	}
	if len(r.Unchecked) > 0 {
		line := 1
		if len(r.Edits) > 0 {
			line = r.Edits[0].From
		}
		fmt.Fprintf(&b, "::warning file=%s,line=%d,title=%s::%s\n", head, line, ghProperty("replaycheck gate: decisions no cell judges"), ghData(r.uncheckedSummary()))
	}
	if r.Errors() > 0 {
		fmt.Fprintf(&b, "::error title=replaycheck gate incomplete::%s\n", ghData(r.verdict()))
	}
	b.WriteString(r.verdict() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// editLevel is the annotation level of an edited range: error when the
// gate fails, warning when routes change that no cell judges, notice when
// it passes.
func (r *Result) editLevel() string {
	switch {
	case !r.Passed():
		return "error"
	case len(r.Unchecked) > 0:
		return "warning"
	}
	return "notice"
}

// editSummary says on an edited range what the edit does to the matrix:
// the verdict and the cells it regresses.
func (r *Result) editSummary() string {
	var cells []string
	for _, c := range r.Regressions() {
		cells = append(cells, c.Target+"/"+c.Scenario)
	}
	s := r.verdict()
	if len(cells) > 0 {
		s += ": " + list(cells, 12)
	}
	return s + " (" + strings.TrimPrefix(r.header(), "gate: "+r.BasePath+" -> "+r.HeadPath+": ") + "; the job summary has the matrix diff)"
}

// uncheckedSummary names the routes no cell judges.
func (r *Result) uncheckedSummary() string {
	var b strings.Builder
	b.WriteString(r.unchecked() + "; add an alias that takes one:")
	for _, u := range r.Unchecked {
		b.WriteString("\n" + uncheckedLine(u))
	}
	return b.String()
}

// errorPosition finds the file and line an error names: "file:12: …" as
// matrix errors start, or "file: yaml: line 12: …" as YAML syntax errors.
var errorPosition = regexp.MustCompile(`^([^\s:]+):(?:(\d+):| yaml: line (\d+):)`)

// WriteGitHubError writes err, a gate that could not run, as a GitHub
// ::error workflow command: on the file and line it names when it names
// one, so that a head table that does not load is shown on its line.
func WriteGitHubError(w io.Writer, err error) {
	msg := ghData(err.Error())
	if m := errorPosition.FindStringSubmatch(err.Error()); m != nil {
		if n, _ := strconv.Atoi(m[2] + m[3]); n > 0 {
			fmt.Fprintf(w, "::error file=%s,line=%d,title=replaycheck gate::%s\n", ghProperty(m[1]), n, msg)
			return
		}
	}
	fmt.Fprintf(w, "::error title=replaycheck gate::%s\n", msg)
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
