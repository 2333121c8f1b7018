package report

import (
	"bytes"
	"fmt"
	"html/template"
	"slices"
	"strings"
)

// Chart geometry (SVG user units).
const (
	chartW, chartH       = 720, 270
	plotL, plotR         = 64, 704
	plotT, plotB         = 54, 230
	chartReferenceColour = "var(--curve-ref)"
	chartBaselineColour  = "var(--curve-base)"
)

// htmlCurve is the quality-curve section of the page: one chart over every
// target whose provider reads earlier reasoning, and a row of figures per
// route family.
type htmlCurve struct {
	Summary string
	Method  string
	// Chart is the inline SVG, or "" when no target reads earlier
	// reasoning.
	Chart    template.HTML
	Families []htmlCurveFamily
	// Uncharted are the targets without a line in the chart, with why:
	// "mistral (chat: strict): the provider reads none of …".
	Uncharted []string
}

// htmlCurveFamily is one family's figures.
type htmlCurveFamily struct {
	Name      string
	Targets   string // the charted targets, joined
	Reference string // "100%": kept conclusions stated right after compaction
	Baseline  string
	// Refused counts the baseline's questions the provider refused (their
	// answers state nothing).
	Refused int
}

// newHTMLCurve lays out the section.
func newHTMLCurve(q *QualityCurve) *htmlCurve {
	out := &htmlCurve{Summary: q.Summary(), Method: q.Provenance + ": " + q.Method}
	var charted []CurveTarget
	for _, f := range q.families() {
		for _, t := range f.Other {
			out.Uncharted = append(out.Uncharted, t.Target+" ("+f.Name+"): "+readsReason(t))
		}
		if len(f.Charted) == 0 {
			continue
		}
		charted = append(charted, f.Charted...)
		hf := htmlCurveFamily{Name: f.Name, Reference: percentRange(f.afterCompaction(false)), Baseline: percentRange(f.afterCompaction(true))}
		var names []string
		for _, t := range f.Charted {
			names = append(names, t.Target)
			hf.Refused += len(t.Baseline.Refused)
		}
		hf.Targets = strings.Join(names, ", ")
		out.Families = append(out.Families, hf)
	}
	if len(charted) > 0 {
		out.Chart = template.HTML(chartSVG(charted, q.Questions))
	}
	return out
}

// meanSeries is, per question, the mean share over the targets that have
// earlier turns in their history, a refused question counting as an
// answer that states nothing (-1 where no target has a share).
func meanSeries(ts []CurveTarget, baseline bool, questions int) []int {
	out := make([]int, questions)
	for i := range out {
		sum, n := 0, 0
		for _, t := range ts {
			s := t.Reference
			if baseline {
				s = t.Baseline
			}
			if slices.Contains(s.Refused, i+1) {
				n++
				continue
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

// chartSVG draws the chart: the mean share of earlier conclusions the
// answer states, per question, over the targets given, reference engine
// (solid) against the baseline (dashed), with the reference engine's
// compactions as ticks. Static SVG, no script; well-formed XML.
func chartSVG(ts []CurveTarget, questions int) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg class="curve" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-labelledby="curve-title">`, chartW, chartH, chartW, chartH)
	fmt.Fprintf(&b, `<title id="curve-title">Share of earlier conclusions the answer states, per question, over %d targets whose provider reads earlier reasoning: the reference engine against the baseline that strips kept reasoning at compaction</title>`, len(ts))
	for _, share := range []int{0, 50, 100} {
		y := chartY(share)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" class="curve-grid"></line>`, plotL, y, plotR, y)
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="curve-axis" text-anchor="end">%d%%</text>`, plotL-6, y+4, share)
	}
	fmt.Fprintf(&b, `<text x="14" y="%d" class="curve-axis" text-anchor="middle" transform="rotate(-90 14 %d)">earlier conclusions stated</text>`, (plotT+plotB)/2, (plotT+plotB)/2)
	for _, q := range []int{1, questions / 3, 2 * questions / 3, questions} {
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="curve-axis" text-anchor="middle">%d</text>`, chartX(q, questions), plotB+16, q)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" class="curve-axis" text-anchor="middle">question (grey ticks: compactions)</text>`, (plotL+plotR)/2, plotB+33)
	seen := map[int]bool{}
	for _, t := range ts {
		for _, q := range t.Reference.Compactions {
			if !seen[q] {
				seen[q] = true
				x := chartX(q, questions)
				fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" class="curve-compaction"></line>`, x, plotT, x, plotB)
			}
		}
	}
	fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2.5" stroke-dasharray="5 3"></polyline>`, polyline(meanSeries(ts, true, questions), questions), chartBaselineColour)
	fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2.5"></polyline>`, polyline(meanSeries(ts, false, questions), questions), chartReferenceColour)
	lx := plotL
	fmt.Fprintf(&b, `<line x1="%d" y1="14" x2="%d" y2="14" stroke="%s" stroke-width="2.5"></line><text x="%d" y="18" class="curve-legend">replaycheck's engine: keeps the reasoning of the turns it keeps</text>`, lx, lx+22, chartReferenceColour, lx+28)
	fmt.Fprintf(&b, `<line x1="%d" y1="34" x2="%d" y2="34" stroke="%s" stroke-width="2.5" stroke-dasharray="5 3"></line><text x="%d" y="38" class="curve-legend">the seed's "before": strips it at compaction</text>`, lx, lx+22, chartBaselineColour, lx+28)
	b.WriteString(`</svg>`)
	return b.String()
}
