package report

import (
	"bytes"
	"fmt"
	"slices"
)

// A QualityCurve is the post-compaction quality curve: one long session
// per target, run twice against the target profile's simulator, with the
// reference engine and with a baseline that strips the kept turns'
// reasoning at compaction (the seed's "before"). After each answer it
// counts how many conclusions of the earlier turns still in the history
// the answer states.
type QualityCurve struct {
	// Questions is the length of each session.
	Questions int `json:"questions"`
	// Provenance is "simulated": the sessions run against the provider
	// profiles' simulators, never a live provider.
	Provenance string `json:"provenance"`
	// Method says in one sentence how the sessions compact.
	Method string `json:"method"`
	// Targets are the curves, in matrix.yaml order.
	Targets []CurveTarget `json:"targets"`
}

// What a provider reads of the reasoning its route sends, by its answers.
const (
	ReadsPrior   = "prior"   // earlier turns' reasoning too
	ReadsCurrent = "current" // only the tool loop in flight
	ReadsNothing = "nothing" // none of it
)

// A CurveTarget is one target's pair of sessions.
type CurveTarget struct {
	Target string `json:"target"`
	// Family is the route family the target's chart belongs to: the api
	// mode, and on chat routes the route table's row.
	Family string `json:"family"`
	// Reads is ReadsPrior, ReadsCurrent or ReadsNothing; only ReadsPrior
	// targets can state an earlier conclusion, so only they are charted.
	Reads     string      `json:"reads"`
	Reference CurveSeries `json:"reference"`
	Baseline  CurveSeries `json:"baseline"`
}

// A CurveSeries is one session of a curve. matrix.json holds its figures
// (compactions, the shares after them, refusals); the per-question counts
// the charts are drawn from stay in memory.
type CurveSeries struct {
	// Stated[i] is how many conclusions of earlier turns still in the
	// history the answer to question i+1 states; InContext[i] is how many
	// such turns there are.
	Stated    []int `json:"-"`
	InContext []int `json:"-"`
	// Compactions are the questions (1-based) the history was compacted
	// before.
	Compactions []int `json:"compactions"`
	// After is the share (percent) of kept conclusions the first answer
	// after each compaction states ([CurveSeries.Settle] computes it).
	After []int `json:"after_compaction"`
	// Refused are the questions whose request the provider refused (the
	// answer states nothing).
	Refused []int `json:"refused,omitempty"`
}

// Settle computes After from the per-question counts and makes the lists
// of matrix.json lists (never null).
func (s *CurveSeries) Settle() {
	s.After = []int{}
	for _, q := range s.Compactions {
		if share, ok := s.Share(q - 1); ok {
			s.After = append(s.After, share)
		}
	}
	if s.Compactions == nil {
		s.Compactions = []int{}
	}
}

// Share is the percentage (rounded down) of earlier conclusions the answer
// to question i (0-based) states, and false when no earlier turn is in the
// history.
func (s CurveSeries) Share(i int) (int, bool) {
	if i >= len(s.InContext) || s.InContext[i] == 0 {
		return 0, false
	}
	return 100 * s.Stated[i] / s.InContext[i], true
}

// mean is the rounded-down mean of xs, and false when xs is empty.
func mean(xs []int) (int, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	sum := 0
	for _, x := range xs {
		sum += x
	}
	return sum / len(xs), true
}

// percentRange renders "100%" or "0–100%" for a list of shares, "–" when empty.
func percentRange(xs []int) string {
	if len(xs) == 0 {
		return "–"
	}
	lo, hi := slices.Min(xs), slices.Max(xs)
	m, _ := mean(xs)
	if lo == hi {
		return fmt.Sprintf("%d%%", lo)
	}
	return fmt.Sprintf("%d%% (%d–%d%%)", m, lo, hi)
}

// A curveFamily is the targets of one chart.
type curveFamily struct {
	Name    string
	Charted []CurveTarget // the targets whose provider reads earlier reasoning
	Other   []CurveTarget // the rest, listed with why they are not charted
}

// families groups the curve's targets by family, in first-seen order.
func (q *QualityCurve) families() []curveFamily {
	var out []curveFamily
	for _, t := range q.Targets {
		i := slices.IndexFunc(out, func(f curveFamily) bool { return f.Name == t.Family })
		if i < 0 {
			out = append(out, curveFamily{Name: t.Family})
			i = len(out) - 1
		}
		if t.Reads == ReadsPrior {
			out[i].Charted = append(out[i].Charted, t)
		} else {
			out[i].Other = append(out[i].Other, t)
		}
	}
	return out
}

// afterCompaction pools the shares after compaction of a family's charted
// targets.
func (f curveFamily) afterCompaction(baseline bool) []int {
	var out []int
	for _, t := range f.Charted {
		s := t.Reference
		if baseline {
			s = t.Baseline
		}
		out = append(out, s.After...)
	}
	return out
}

// readsReason says why a target is not charted.
func readsReason(t CurveTarget) string {
	if n := len(t.Reference.Refused); n > 0 && n == len(t.Reference.Stated) {
		return fmt.Sprintf("the provider refused every request of the reference engine's session (%d of %d), so no answer could be read", n, n)
	}
	if t.Reads == ReadsCurrent {
		return "the provider reads only the tool loop in flight, so no earlier conclusion can reach an answer"
	}
	return "the provider reads none of the reasoning the route sends"
}

// Summary is the curve in one sentence: the mean share of kept
// conclusions stated right after compaction, reference against baseline,
// over every charted target.
func (q *QualityCurve) Summary() string {
	var ref, base []int
	n, compactions := 0, 0
	for _, t := range q.Targets {
		if t.Reads != ReadsPrior {
			continue
		}
		n++
		compactions += len(t.Reference.Compactions)
		ref = append(ref, t.Reference.After...)
		base = append(base, t.Baseline.After...)
	}
	if n == 0 {
		return fmt.Sprintf("%d-question sessions: no target's provider reads earlier reasoning", q.Questions)
	}
	r, _ := mean(ref)
	b, _ := mean(base)
	return fmt.Sprintf("%d-question sessions on %d targets whose provider reads earlier reasoning (%d compactions with the reference engine): right after compaction the answer states %d%% of the kept turns' conclusions with the reference engine, %d%% with the baseline that strips them", q.Questions, n, compactions, r, b)
}

// writeMarkdownCurve writes the quality-curve section: the summary, then
// one row per target with the shares after compaction.
func writeMarkdownCurve(b *bytes.Buffer, q *QualityCurve) {
	b.WriteString("\n## Quality after compaction\n\n")
	fmt.Fprintf(b, "%s (%s: %s).\n\n", q.Summary(), q.Provenance, q.Method)
	b.WriteString("| family | target | provider reads | compactions (reference / baseline) | kept conclusions stated after compaction: reference | baseline |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- |\n")
	for _, f := range q.families() {
		for _, t := range append(slices.Clone(f.Charted), f.Other...) {
			ref, base := "n/a", "n/a"
			if t.Reads == ReadsPrior {
				ref, base = percentRange(t.Reference.After), percentRange(t.Baseline.After)
			}
			reads := t.Reads
			if t.Reads != ReadsPrior {
				reads += ": " + readsReason(t)
			}
			refused := ""
			if len(t.Baseline.Refused) > 0 {
				refused = fmt.Sprintf(" (baseline refused %d times)", len(t.Baseline.Refused))
			}
			fmt.Fprintf(b, "| %s | `%s` | %s | %d / %d | %s | %s%s |\n", f.Name, t.Target, reads,
				len(t.Reference.Compactions), len(t.Baseline.Compactions), ref, base, refused)
		}
	}
}

// CurveMethod says how the sessions of a curve compact.
func CurveMethod(questions, every int) string {
	return fmt.Sprintf("%d questions, each a tool loop to its answer; the history is compacted to half the threshold whenever its estimate passes %d times the first turn's", questions, every)
}
