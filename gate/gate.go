package gate

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// Kinds of change.
const (
	Regression  = "regression"
	Improvement = "improvement"
	Changed     = "changed"
)

// A Change is one cell whose outcome differs between base and head.
type Change struct {
	Kind       string
	Target     string
	Scenario   string
	Base, Head report.Cell
	// Field says what the head table changed for the target's route, e.g.
	// "carriers +reasoning_content (row strict)".
	Field string
	// Line is the line of the target in the head matrix.yaml.
	Line int
	// Why names the failure a regression is, in words: the provider
	// refused, the cassette has no answer, or the provider read reasoning
	// the route no longer sends.
	Why string
}

// Why a cell regressed.
const (
	// WhyRefused: the provider refuses what the head table sends, or an
	// invariant broke.
	WhyRefused = "the provider refuses what the route now sends, or an invariant broke"
	// WhyUnverified: the head table sends a request no cassette answers.
	WhyUnverified = "the route now sends a request the cassette has no recorded answer for"
	// WhyDropped: the cell went from pass to advisory. The provider reads
	// reasoning that the route no longer sends, so the model reasons again
	// from scratch: the seed's failure, where reasoning was discarded and
	// the model guessed again.
	WhyDropped = "the provider read reasoning the route no longer sends"
)

// A Result is the outcome of a gate run.
type Result struct {
	// BasePath and HeadPath name the two tables (a file, or ref:path).
	BasePath, HeadPath string
	Base, Head         *report.Matrix
	Changes            []Change
}

// NotJudged counts the cells of either run that could not be judged
// (status error): a gate with any is incomplete.
func (r *Result) NotJudged() int {
	return r.Base.Counts()[report.StatusError] + r.Head.Counts()[report.StatusError]
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

// Evaluate runs the base and head tables over the head's targets against
// the cassettes in dir and compares the cells.
func Evaluate(ctx context.Context, base, head *matrix.File, profiles map[string]*providers.Profile, dir string) (*Result, error) {
	var ids []string
	for _, t := range head.Targets {
		ids = append(ids, t.ID)
	}
	// The gate judges by recorded answers only (strict replay): a variant no
	// cassette holds is an unverified cell, never judged by the simulator.
	// Both tables replay the same cassettes: each is parsed once.
	cassettes := &harness.Cache{}
	headRun := &scenario.Runner{Matrix: head, Profiles: profiles, CassetteDir: dir, StrictReplay: true, Cassettes: cassettes}
	h, err := headRun.RunMatrix(ctx, ids, nil, nil)
	if err != nil {
		return nil, err
	}
	// The base table is judged on the head's targets, with the base's own
	// known-failure declarations.
	baseFile := *head
	baseFile.Table = base.Table
	baseFile.KnownFailures = base.KnownFailures
	baseRun := &scenario.Runner{Matrix: &baseFile, Profiles: profiles, CassetteDir: dir, StrictReplay: true, Cassettes: cassettes}
	b, err := baseRun.RunMatrix(ctx, ids, nil, nil)
	if err != nil {
		return nil, err
	}
	res := &Result{BasePath: base.Path, HeadPath: head.Path, Base: b, Head: h}
	for _, hc := range h.Cells {
		bc, _ := b.Cell(hc.Target, hc.Scenario)
		if bc.Status == hc.Status {
			continue
		}
		t, _ := head.Target(hc.Target)
		k, why := classify(bc.Status, hc.Status)
		res.Changes = append(res.Changes, Change{
			Kind: k, Why: why, Target: hc.Target, Scenario: hc.Scenario,
			Base: bc, Head: hc, Field: routeChange(&base.Table, &head.Table, t.Route), Line: t.Line,
		})
	}
	res.aliases(ctx, baseRun, headRun, &base.Table, &head.Table)
	return res, nil
}

// aliases compares the cells of every alias of the head's targets: each
// alias is judged against its target's cassettes with the route decision
// each table makes for the alias, so an edit that changes what users who
// reach an endpoint another way get is seen too.
func (r *Result) aliases(ctx context.Context, baseRun, headRun *scenario.Runner, base, head *engine.Table) {
	for _, t := range headRun.Matrix.Targets {
		for i, a := range t.Aliases {
			for _, sc := range scenario.All() {
				bc, hc := baseRun.AliasCell(ctx, t, i, sc), headRun.AliasCell(ctx, t, i, sc)
				r.Base.Cells = append(r.Base.Cells, bc)
				r.Head.Cells = append(r.Head.Cells, hc)
				if bc.Status == hc.Status {
					continue
				}
				k, why := classify(bc.Status, hc.Status)
				r.Changes = append(r.Changes, Change{
					Kind: k, Why: why, Target: hc.Target, Scenario: sc.Name, Base: bc, Head: hc, Line: a.Line,
					Field: fmt.Sprintf("alias (%s, %s, %s) of %s: %s", a.Route.Provider, a.Route.BaseURL, a.Route.Model, t.ID, routeChange(base, head, a.Route)),
				})
			}
		}
	}
}

func good(s report.Status) bool { return s == report.StatusPass || s == report.StatusAdvisory }

// Classify classifies a cell that changed from base to head, and names
// why a regression is one.
func Classify(base, head report.Status) (kind, why string) { return classify(base, head) }

// classify classifies a changed cell, and names why a regression is one. A
// cell that goes from pass to advisory is a regression: the provider read
// reasoning that the route no longer sends. One that goes from advisory to
// pass is an improvement.
func classify(base, head report.Status) (string, string) {
	switch {
	case good(base) && head == report.StatusFail:
		return Regression, WhyRefused
	case good(base) && head == report.StatusUnverified:
		return Regression, WhyUnverified
	case base == report.StatusPass && head == report.StatusAdvisory:
		return Regression, WhyDropped
	case !good(base) && good(head), base == report.StatusAdvisory && head == report.StatusPass:
		return Improvement, ""
	}
	return Changed, ""
}

// routeChange describes what the head table decides differently from the
// base table for a route.
func routeChange(base, head *engine.Table, r engine.Route) string {
	b, h := base.Decide(r, 0), head.Decide(r, 0)
	var parts []string
	if added := h.Carriers.Minus(b.Carriers); !added.Empty() {
		parts = append(parts, "carriers +"+strings.Join(added.Names(), " +"))
	}
	if removed := b.Carriers.Minus(h.Carriers); !removed.Empty() {
		parts = append(parts, "carriers -"+strings.Join(removed.Names(), " -"))
	}
	if b.EchoFamily != h.EchoFamily {
		parts = append(parts, fmt.Sprintf("must-echo family %q -> %q", b.EchoFamily, h.EchoFamily))
	}
	if b.Pad != h.Pad {
		parts = append(parts, fmt.Sprintf("pad %v -> %v", b.Pad, h.Pad))
	}
	if !slices.Equal(b.FlagIDs, h.FlagIDs) {
		parts = append(parts, fmt.Sprintf("flags %v -> %v", b.FlagIDs, h.FlagIDs))
	}
	if !slices.Equal(b.NativeFields, h.NativeFields) {
		parts = append(parts, fmt.Sprintf("native fields %v -> %v", b.NativeFields, h.NativeFields))
	}
	if b.Row != h.Row {
		parts = append(parts, fmt.Sprintf("row %s -> %s", b.Row, h.Row))
	}
	if len(parts) == 0 {
		if h.Native {
			return "native dialect policy"
		}
		return "no route decision change (row " + h.Row + ")"
	}
	return strings.Join(parts, ", ") + " (row " + h.Row + ")"
}
