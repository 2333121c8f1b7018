package report

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"
)

// Chart geometry (SVG user units).
const (
	chartW, chartH       = 460, 200
	plotL, plotR         = 44, 448
	plotT, plotB         = 44, 166
	chartReferenceColour = "var(--curve-ref)"
	chartBaselineColour  = "var(--curve-base)"
)

// htmlCurve is the quality-curve section of the page.
type htmlCurve struct {
	Summary  string
	Method   string
	Families []htmlCurveFamily // the charted families
	// Uncharted are the families without a chart, with their targets and
	// why: "chat: strict (mistral, groq): the provider reads none of …".
	Uncharted []string
}

// htmlCurveFamily is one family's chart and the targets it is drawn from.
type htmlCurveFamily struct {
	Name, ID string
	Chart    template.HTML // inline SVG, or "" when no target is charted
	Targets  string        // the charted targets, joined
	Figures  string        // "after compaction: reference 100%, baseline 0%"
	Other    []string      // "target: why not charted"
}

// newHTMLCurve lays out the section: one chart per family.
func newHTMLCurve(q *QualityCurve) *htmlCurve {
	out := &htmlCurve{Summary: q.Summary(), Method: q.Provenance + ": " + q.Method}
	for _, f := range q.families() {
		hf := htmlCurveFamily{Name: f.Name, ID: "curve-" + familyID(f.Name)}
		for _, t := range f.Other {
			hf.Other = append(hf.Other, t.Target+": "+readsReason(t))
		}
		if len(f.Charted) > 0 {
			var names []string
			for _, t := range f.Charted {
				names = append(names, t.Target)
			}
			hf.Targets = strings.Join(names, ", ")
			hf.Figures = fmt.Sprintf("kept conclusions stated right after compaction: reference %s, baseline %s",
				percentRange(f.afterCompaction(false)), percentRange(f.afterCompaction(true)))
			refused := 0
			for _, t := range f.Charted {
				refused += len(t.Baseline.Refused)
			}
			if refused > 0 {
				hf.Figures += fmt.Sprintf(" (the provider refused %d of the baseline's questions after compaction: it answers nothing)", refused)
			}
			hf.Chart = template.HTML(chartSVG(f, q.Questions))
		}
		if hf.Chart == "" {
			out.Uncharted = append(out.Uncharted, f.Name+": "+strings.Join(hf.Other, "; "))
			continue
		}
		out.Families = append(out.Families, hf)
	}
	return out
}

// meanSeries is, per question, the mean share over the targets that have
// earlier turns in their history (-1 where none has).
func meanSeries(ts []CurveTarget, baseline bool, questions int) []int {
	out := make([]int, questions)
	for i := range out {
		sum, n := 0, 0
		for _, t := range ts {
			s := t.Reference
			if baseline {
				s = t.Baseline
			}
			if share, ok := s.Share(i); ok {
				sum, n = sum+share, n+1
			}
		}
		out[i] = -1
		if n > 0 {
			out[i] = sum / n
		}
	}
	return out
}

func chartX(q, questions int) int {
	if questions <= 1 {
		return plotL
	}
	return plotL + (plotR-plotL)*(q-1)/(questions-1)
}

func chartY(share int) int { return plotB - (plotB-plotT)*share/100 }

// polyline renders a series as SVG points, skipping questions without a
// share.
func polyline(series []int, questions int) string {
	var b strings.Builder
	for i, v := range series {
		if v < 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d,%d", chartX(i+1, questions), chartY(v))
	}
	return b.String()
}

// chartSVG draws one family's chart: the share of earlier conclusions
// stated per question, reference engine (solid) against the baseline
// (dashed), with the reference engine's compactions as ticks. Static SVG,
// no script; well-formed XML.
func chartSVG(f curveFamily, questions int) string {
	var b bytes.Buffer
	esc := template.HTMLEscapeString
	fmt.Fprintf(&b, `<svg class="curve" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-labelledby="%s-title">`, chartW, chartH, chartW, chartH, "curve-"+familyID(f.Name))
	fmt.Fprintf(&b, `<title id="%s-title">%s: share of earlier conclusions the answer states, per question; reference engine against the baseline that strips kept reasoning at compaction</title>`, "curve-"+familyID(f.Name), esc(f.Name))
	fmt.Fprintf(&b, `<text x="%d" y="16" class="curve-title">%s</text>`, plotL, esc(f.Name))
	for _, share := range []int{0, 50, 100} {
		y := chartY(share)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" class="curve-grid"></line>`, plotL, y, plotR, y)
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="curve-axis" text-anchor="end">%d%%</text>`, plotL-6, y+4, share)
	}
	for _, q := range []int{1, questions / 3, 2 * questions / 3, questions} {
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="curve-axis" text-anchor="middle">%d</text>`, chartX(q, questions), plotB+16, q)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" class="curve-axis" text-anchor="middle">question</text>`, (plotL+plotR)/2, plotB+31)
	seen := map[int]bool{}
	for _, t := range f.Charted {
		for _, q := range t.Reference.Compactions {
			if !seen[q] {
				seen[q] = true
				x := chartX(q, questions)
				fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" class="curve-compaction"></line>`, x, plotT, x, plotB)
			}
		}
	}
	fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2.5" stroke-dasharray="5 3"></polyline>`, polyline(meanSeries(f.Charted, true, questions), questions), chartBaselineColour)
	fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2.5"></polyline>`, polyline(meanSeries(f.Charted, false, questions), questions), chartReferenceColour)
	lx := plotL
	fmt.Fprintf(&b, `<line x1="%d" y1="28" x2="%d" y2="28" stroke="%s" stroke-width="2.5"></line><text x="%d" y="32" class="curve-axis">reference engine</text>`, lx, lx+18, chartReferenceColour, lx+22)
	fmt.Fprintf(&b, `<line x1="%d" y1="28" x2="%d" y2="28" stroke="%s" stroke-width="2.5" stroke-dasharray="5 3"></line><text x="%d" y="32" class="curve-axis">baseline: strips kept reasoning at compaction</text>`, lx+125, lx+143, chartBaselineColour, lx+147)
	b.WriteString(`</svg>`)
	return b.String()
}
