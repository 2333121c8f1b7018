package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"
)

//go:embed html.tmpl
var htmlSource string

// htmlPage is parsed once; html/template escapes every value by context.
var htmlPage = template.Must(template.New("matrix.html").Funcs(template.FuncMap{"verdictClass": verdictClass, "named": named}).Parse(htmlSource))

// htmlData is what html.tmpl renders.
type htmlData struct {
	Shape          string // "3 targets × 4 scenarios"
	Implementation *Implementation
	Counts         []htmlCount
	Scenarios      []string
	Rows           []htmlRow
	// Aliases are the alias rows, AliasSummary their counts.
	Aliases      []htmlRow
	AliasSummary string
	Details      []htmlCell // the cells with details, what needs attention first
	// Inapplicable are the n/a cells, each with why: folded away.
	Inapplicable []htmlCell
	Evidence     *htmlEvidence
	Curve        *htmlCurve
}

// htmlEvidence is the recorded-evidence section of the page.
type htmlEvidence struct {
	*Evidence
	Summary string
}

// namedCheck is a check with the name the page shows it under.
type namedCheck struct {
	Name  string
	Check Check
}

func named(name string, c Check) namedCheck { return namedCheck{name, c} }

// verdictClass returns the status class a verdict is coloured with: pass and agree as
// pass, advisory as advisory, fail and disagree as fail, unverifiable and not-checked as
// unverified, n/a as na.
func verdictClass(v Verdict) string {
	switch v {
	case VerdictPass, VerdictAgree:
		return "pass"
	case VerdictAdvisory:
		return "advisory"
	case VerdictFail, VerdictDisagree:
		return "fail"
	case VerdictNA:
		return "na"
	}
	return "unverified"
}

// htmlCount is one status in the counts bar and the legend.
type htmlCount struct {
	Status  Status
	Label   string
	Meaning string
	Class   string
	N       int
}

// htmlRow is one target's line of the grid.
type htmlRow struct {
	Target string
	// Route and Note describe an alias's row.
	Route, Note string
	Cells       []htmlCell
}

// htmlCell is a cell with what the page shows of it.
type htmlCell struct {
	Cell
	Label     string // "FAIL"
	Marker    string // "rec", "sim" or ""
	Class     string // CSS class suffix: the status with "/" removed
	Linked    bool   // the grid cell links to its details entry
	HasFields bool   // the details entry has expected, actual, provider error or cassette
}

// WriteHTML writes m as one self-contained page (matrix.html): inline CSS only, no scripts, no
// fonts, images or links to other hosts, so it renders offline. It shows the summary, the
// implementation checked (when m names it) and counts, a legend, the colour-coded grid (one <td> per target × scenario carrying data-target,
// data-scenario and data-status, with the provenance marked per cell) and a details section.
// Every cell that is neither pass nor n/a, and every n/a cell with a detail, links to its entry
// (id "detail-<target>-<scenario>") giving detail, expected, actual, the provider's recorded
// error (in <pre>) and the cassette path. A matrix with an evidence section ends with it: the
// per-target counts, each exchange's checks and findings, and the simulator fidelity per
// profile. The markup is well-formed XML apart from the doctype.
func WriteHTML(w io.Writer, m *Matrix) error {
	rows, err := m.grid()
	if err != nil {
		return err
	}
	data := htmlData{
		Shape:          m.shape(),
		Implementation: m.Implementation,
		Scenarios:      m.Scenarios,
		Rows:           make([]htmlRow, 0, len(rows)),
	}
	counts := m.Counts()
	for _, s := range Statuses() {
		data.Counts = append(data.Counts, htmlCount{
			Status: s, Label: s.Label(), Meaning: s.Meaning(), Class: statusClass(s), N: counts[s],
		})
	}
	for i, row := range rows {
		data.Rows = append(data.Rows, data.row(htmlRow{Target: m.Targets[i]}, row, true))
	}
	for _, a := range m.Aliases {
		// An alias's n/a cells say why in their title; only what needs
		// attention gets a card.
		data.Aliases = append(data.Aliases, data.row(htmlRow{Target: a.Name, Route: a.Route, Note: a.Note}, a.Cells, false))
	}
	data.AliasSummary = m.AliasSummary()
	// What needs attention comes first: failures, cells not judged, the
	// reasoning a route does not send, declared failures, then passes.
	slices.SortStableFunc(data.Details, func(a, b htmlCell) int { return attention[a.Status] - attention[b.Status] })
	if m.Evidence != nil {
		data.Evidence = &htmlEvidence{Evidence: m.Evidence, Summary: m.Evidence.Summary()}
	}
	if m.Curve != nil {
		data.Curve = newHTMLCurve(m.Curve)
	}
	var b bytes.Buffer
	if err := htmlPage.Execute(&b, data); err != nil {
		return fmt.Errorf("render matrix html: %w", err)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write matrix html: %w", err)
	}
	return nil
}

// row fills r with cells, and files each cell with a detail among the
// details, or among the inapplicable ones (withNA) when it is n/a.
func (d *htmlData) row(r htmlRow, cells []Cell, withNA bool) htmlRow {
	for _, c := range cells {
		hc := newHTMLCell(c)
		if c.Status == StatusNA {
			hc.Linked = hc.Linked && withNA
		}
		r.Cells = append(r.Cells, hc)
		switch {
		case !hc.Linked:
		case c.Status == StatusNA:
			d.Inapplicable = append(d.Inapplicable, hc)
		default:
			d.Details = append(d.Details, hc)
		}
	}
	return r
}

// attention orders the details: what needs attention first.
var attention = map[Status]int{StatusFail: 0, StatusError: 1, StatusUnverified: 2, StatusAdvisory: 3, StatusKnownFail: 4, StatusPass: 5}

// newHTMLCell prepares a cell for the page: text fields with line ends normalised and the
// detail as one paragraph.
func newHTMLCell(c Cell) htmlCell {
	c.Detail = paragraph(c.Detail)
	c.Expected = lines(c.Expected)
	c.Actual = lines(c.Actual)
	c.ProviderError = lines(c.ProviderError)
	c.Cassette = strings.TrimSpace(c.Cassette)
	return htmlCell{
		Cell:      c,
		Label:     c.Status.Label(),
		Marker:    gridMarker(c.Provenance),
		Class:     statusClass(c.Status),
		Linked:    c.hasDetail(true),
		HasFields: c.VerdictText() != "" || c.Expected != "" || c.Actual != "" || c.ProviderError != "" || c.Cassette != "",
	}
}

// gridMarker is the provenance as the page's grid marks it, one letter so
// that nine columns fit a laptop's width: s(imulated), r(ecorded),
// p(rofile); the legend and each cell's title spell it out.
func gridMarker(provenance string) string {
	if m := provenanceMarker(provenance); m != "" {
		return m[:1]
	}
	return ""
}

// statusClass returns the CSS class suffix of a status: "n/a" becomes "na".
func statusClass(s Status) string {
	return strings.ReplaceAll(string(s), "/", "")
}
