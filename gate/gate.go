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
	// Added is a cell of a target or an alias the head table adds, judged
	// on its own: one that fails, is unverified or errors is a
	// [Regression] instead.
	Added = "added"
)

// A Change is one cell whose outcome differs between base and head, or a
// cell of a target or alias that only the head has.
type Change struct {
	Kind       string
	Target     string
	Scenario   string
	Base, Head report.Cell
	// New is set for a cell of a target or an alias the head adds: it has
	// no base cell.
	New bool
	// Field says what the head table changed for the target's route, e.g.
	// "carriers +reasoning_content (row strict)".
	Field string
	// Line is the line of the target (or alias) in the head matrix.yaml.
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
	// WhyOtherCause: a known failure now fails for another cause than the
	// one declared: the route sends something else the provider refuses.
	WhyOtherCause = "the known failure now fails for another cause than the one declared"
	// WhyNewFails: a cell the head adds fails.
	WhyNewFails = "a cell the head table adds fails: the provider refuses what the route sends, or an invariant broke"
	// WhyNewDrops: a cell the head adds sends less reasoning than its
	// provider reads, and no advisories: declaration says why.
	WhyNewDrops = "a cell the head table adds sends less reasoning than its provider reads, undeclared"
	// WhyNewUnverified: a cell the head adds has no recorded answer.
	WhyNewUnverified = "a cell the head table adds has no recorded answer to what the route sends: record its cassettes"
	// WhyNewError: a cell the head adds could not be judged.
	WhyNewError = "a cell the head table adds could not be judged: its detail names the bad input"
)

// Options tune [EvaluateWith].
type Options struct {
	// Same reports whether the base and head tables decide the same for a
	// route, so that its cells replay identically under both (see
	// mutate.SameDecision): the base's cells of such a route are the head's,
	// and are not replayed again unless a known-failure declaration of the
	// cell differs. Nil replays every cell under both tables.
	Same func(engine.Route) bool
	// Workers is the number of cells judged at once; 0 is GOMAXPROCS.
	Workers int
	// Progress, when set, is called after each head cell, from one
	// goroutine at a time.
	Progress func(report.Cell)
}

// Evaluate is [EvaluateWith] with no options: every cell is replayed under
// both tables.
func Evaluate(ctx context.Context, base, head *matrix.File, profiles map[string]*providers.Profile, dir string) (*Result, error) {
	return EvaluateWith(ctx, base, head, profiles, dir, Options{})
}

// EvaluateWith runs the base and head tables over the head's targets and
// their aliases against the cassettes in dir and compares the cells. Each
// alias is judged against its target's cassettes with the route decision
// each table makes for the alias, so an edit that changes what users who
// reach an endpoint another way get is seen too. The cells of a target or
// an alias only the head has are judged on their own. It refuses a
// cassette directory that is missing, or that holds no cassette for some
// target the head judges: that gate would judge nothing.
func EvaluateWith(ctx context.Context, base, head *matrix.File, profiles map[string]*providers.Profile, dir string, opts Options) (*Result, error) {
	if err := CheckCassettes(head, profiles, dir); err != nil {
		return nil, err
	}
	// The gate judges by recorded answers only (strict replay): a variant no
	// cassette holds is an unverified cell, never judged by the simulator.
	// Both tables replay the same cassettes: each is parsed once.
	cassettes := &harness.Cache{}
	headRun := &scenario.Runner{Matrix: head, Profiles: profiles, CassetteDir: dir, StrictReplay: true, Cassettes: cassettes}
	// The base table is judged on the head's targets, with the base's own
	// known-failure and advisory declarations.
	baseFile := *head
	baseFile.Table = base.Table
	baseFile.KnownFailures = base.KnownFailures
	baseFile.Advisories = base.Advisories
	baseRun := &scenario.Runner{Matrix: &baseFile, Profiles: profiles, CassetteDir: dir, StrictReplay: true, Cassettes: cassettes}
	jobs := cellJobs(base, head)
	run(ctx, jobs, opts, func(j *job) {
		j.head = j.cell(ctx, headRun)
		switch {
		case j.isNew:
		case opts.Same != nil && opts.Same(j.route) && sameDeclaration(base, head, j.t.ID, j.sc.Name) && sameDeclaration(base, head, j.name(), j.sc.Name):
			j.base = j.head
		default:
			j.base = j.cell(ctx, baseRun)
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	info := headRun.Implementation()
	h := &report.Matrix{Implementation: &info}
	b := &report.Matrix{Implementation: &info}
	for _, sc := range scenario.All() {
		h.Scenarios = append(h.Scenarios, sc.Name)
	}
	b.Scenarios = h.Scenarios
	for _, t := range head.Targets {
		h.Targets = append(h.Targets, t.ID)
		if _, ok := base.Target(t.ID); ok {
			b.Targets = append(b.Targets, t.ID)
		}
	}
	res := &Result{BasePath: base.Path, HeadPath: head.Path, CassetteDir: dir, Base: b, Head: h, Removed: removed(base, head)}
	for _, j := range jobs {
		h.Cells = append(h.Cells, j.head)
		if j.isNew {
			res.added(j.head, j.field, j.line)
			continue
		}
		b.Cells = append(b.Cells, j.base)
		if j.base.Status == j.head.Status {
			continue
		}
		k, why := Classify(j.base, j.head)
		res.Changes = append(res.Changes, Change{
			Kind: k, Why: why, Target: j.head.Target, Scenario: j.head.Scenario,
			Base: j.base, Head: j.head, Field: j.field + routeChange(&base.Table, &head.Table, j.route), Line: j.line,
		})
	}
	return res, nil
}

// added records a cell of a target or alias only the head has: n/a cells
// are left out, and one that fails, is unverified or errors regresses.
func (r *Result) added(hc report.Cell, field string, line int) {
	c := Change{Kind: Added, New: true, Target: hc.Target, Scenario: hc.Scenario, Head: hc, Field: field, Line: line}
	switch hc.Status {
	case report.StatusNA:
		return
	case report.StatusFail:
		c.Kind, c.Why = Regression, WhyNewFails
		if strings.HasPrefix(hc.Detail, scenario.UndeclaredAdvisory) {
			c.Why = WhyNewDrops
		}
	case report.StatusUnverified:
		c.Kind, c.Why = Regression, WhyNewUnverified
	case report.StatusError:
		c.Kind, c.Why = Regression, WhyNewError
	}
	r.Changes = append(r.Changes, c)
}

// removed names the targets and aliases of base that head no longer has.
// An alias is the same when its target id and its route are.
func removed(base, head *matrix.File) []string {
	var out []string
	for _, bt := range base.Targets {
		ht, ok := head.Target(bt.ID)
		if !ok {
			out = append(out, "target "+bt.ID)
			continue
		}
		for _, a := range bt.Aliases {
			if aliasIndex(ht, a.Route) < 0 {
				out = append(out, aliasOf(a, bt.ID))
			}
		}
	}
	return out
}

// aliasIndex returns the index of t's alias taking route r, or -1.
func aliasIndex(t matrix.Target, r engine.Route) int {
	for i, a := range t.Aliases {
		if a.Route == r {
			return i
		}
	}
	return -1
}

func good(s report.Status) bool { return s == report.StatusPass || s == report.StatusAdvisory }

// Classify classifies a cell that changed from base to head, and names
// why a regression is one: a cell that fails as an undeclared advisory
// regressed because the provider reads reasoning the route no longer
// sends; a known failure that now fails for another cause than the one
// declared regressed too.
func Classify(base, head report.Cell) (kind, why string) {
	kind, why = classify(base.Status, head.Status)
	switch {
	case kind == Regression && head.Status == report.StatusFail && strings.HasPrefix(head.Detail, scenario.UndeclaredAdvisory):
		why = WhyDropped
	case base.Status == report.StatusKnownFail && head.Status == report.StatusFail && strings.Contains(head.Detail, scenario.OtherCause):
		kind, why = Regression, WhyOtherCause
	}
	return kind, why
}

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
