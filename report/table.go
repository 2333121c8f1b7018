package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// ansi holds the SGR colour codes [WriteTable] uses per status.
var ansi = map[Status]string{
	StatusPass:       "32",      // green
	StatusFail:       "1;31",    // bold red
	StatusUnverified: "33",      // yellow
	StatusNA:         "90",      // grey
	StatusKnownFail:  "35",      // magenta
	StatusAdvisory:   "36",      // cyan
	StatusError:      "1;37;41", // bold white on red
}

// WriteTable writes m as a terminal grid: a header of scenario names, one line per target with
// columns sized to the widest id or cell text, then one line per cell that is neither pass nor
// n/a ("<target>/<scenario>: FAIL (simulated): <detail>"), then the implementation checked (when
// m names it), the summary line and, for a matrix with an evidence section, its summary and
// one line per recorded exchange giving each check's verdict. With color set the statuses are
// coloured with ANSI escapes; without it the output is plain text.
func WriteTable(w io.Writer, m *Matrix, color bool) error {
	rows, err := m.grid()
	if err != nil {
		return err
	}
	paint := func(s Status, text string) string {
		if !color {
			return text
		}
		return "\x1b[" + ansi[s] + "m" + text + "\x1b[0m"
	}

	widths := make([]int, len(m.Scenarios)+1)
	widths[0] = utf8.RuneCountInString("target")
	for _, t := range m.Targets {
		widths[0] = max(widths[0], utf8.RuneCountInString(t))
	}
	for j, s := range m.Scenarios {
		widths[j+1] = utf8.RuneCountInString(s)
		for _, row := range rows {
			widths[j+1] = max(widths[j+1], utf8.RuneCountInString(row[j].Text()))
		}
	}

	var b bytes.Buffer
	header := append([]string{"target"}, m.Scenarios...)
	rule := make([]string, len(widths))
	for i, wd := range widths {
		rule[i] = strings.Repeat("-", wd)
	}
	writeColumns(&b, widths, header, header)
	writeColumns(&b, widths, rule, rule)
	for i, row := range rows {
		plain, shown := []string{m.Targets[i]}, []string{m.Targets[i]}
		for _, c := range row {
			plain = append(plain, c.Text())
			shown = append(shown, paint(c.Status, c.Text()))
		}
		writeColumns(&b, widths, plain, shown)
	}

	if cells := append(detailed(rows, false), detailed(m.aliasGrid(), false)...); len(cells) > 0 {
		b.WriteString("\n")
		for _, c := range cells {
			status := c.Status.Label()
			if c.Provenance != "" {
				status += " (" + c.Provenance + ")"
			}
			line := c.ID() + ": " + paint(c.Status, status)
			if d := printable(paragraph(c.Detail)); d != "" {
				line += ": " + d
			}
			b.WriteString(line + "\n")
			if c.Status == StatusFail || c.Status == StatusUnverified || c.Status == StatusError {
				writeEvidence(&b, c)
			}
		}
	}
	if i := m.Implementation; i != nil {
		b.WriteString("\nimplementation: " + printable(i.String()))
	}
	b.WriteString("\n" + m.Summary() + "\n")
	if s := m.AliasSummary(); s != "" {
		b.WriteString(s + " (their rows: --format md, json or html)\n")
	}
	if ev := m.Evidence; ev != nil {
		b.WriteString("\nrecorded evidence: " + ev.Summary() + "\n")
		for _, u := range ev.Unreadable {
			b.WriteString("unreadable: " + printable(paragraph(u.Detail)) + "\n")
		}
		for _, x := range ev.Exchanges {
			fmt.Fprintf(&b, "%s: capture %s, reproduction %s, simulator %s\n", x.ID(), x.Capture.Verdict, x.Reproduction.Verdict, x.Simulator.Verdict)
		}
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write matrix table: %w", err)
	}
	return nil
}

// writeEvidence writes what a failing or unjudged cell expected, what
// happened, and the provider's words, each indented under the cell.
func writeEvidence(b *bytes.Buffer, c Cell) {
	// The provider's body (often indented JSON) goes on one line.
	body := strings.Join(strings.Fields(c.ProviderError), " ")
	for _, item := range [][2]string{{"verdict", c.VerdictText()}, {"expected", c.Expected}, {"actual", c.Actual}, {"provider error", body}} {
		if v := printable(strings.TrimSpace(item[1])); v != "" && (item[0] != "provider error" || !strings.Contains(c.Actual, v)) {
			b.WriteString("    " + item[0] + ": " + strings.ReplaceAll(v, "\n", "\n      ") + "\n")
		}
	}
}

// writeColumns writes one grid line: shown[i] padded to widths[i] by the width of plain[i] (its
// text without colour), columns two spaces apart, no trailing spaces.
func writeColumns(b *bytes.Buffer, widths []int, plain, shown []string) {
	for i := range shown {
		b.WriteString(shown[i])
		if i < len(shown)-1 {
			b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(plain[i])+2))
		}
	}
	b.WriteString("\n")
}
