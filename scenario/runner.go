package scenario

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/dialects"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// A Runner replays committed cassettes through the engine with a route
// table and turns each target × scenario into a matrix cell.
type Runner struct {
	// Matrix holds the targets and known failures.
	Matrix *matrix.File
	// Table is the route table under test; nil means Matrix.Table.
	Table *engine.Table
	// Profiles are the provider profiles by name (they decide which
	// scenarios apply to a target).
	Profiles map[string]*providers.Profile
	// CassetteDir is the cassettes/ directory.
	CassetteDir string
	// Engine supplies the implementation under check; nil is the reference
	// engine in process, with Table.
	Engine Engine
	// StrictReplay answers only requests that equal a recorded one in
	// canonical JSON (replaycheck's own CI). Otherwise a request is first
	// matched up to the differences its provider's profile declares
	// ignorable, then judged by the profile's simulator (see
	// [harness.Matching]).
	StrictReplay bool
	// Expect are the declarations the cells are judged against; nil is
	// Matrix's for the reference engine and none for an Engine (matrix.yaml
	// declares the reference table's known failures, not another
	// implementation's).
	Expect Declarations
	// Cassettes keeps the cassettes parsed across cells, for a caller that
	// replays the same cassettes many times (mutate, the gate); nil parses
	// each cassette for each cell.
	Cassettes *harness.Cache

	sims simulators
}

// Implementation names the implementation the runner checks.
func (r *Runner) Implementation() report.Implementation {
	if r.Engine != nil {
		return r.Engine.Info()
	}
	return ReferenceInfo
}

func (r *Runner) table() *engine.Table {
	if r.Table != nil {
		return r.Table
	}
	return &r.Matrix.Table
}

// Cell runs one scenario against one target's cassette.
func (r *Runner) Cell(ctx context.Context, t matrix.Target, sc Scenario) report.Cell {
	cell, ok := r.precheck(t, sc)
	if !ok {
		return cell
	}
	if r.Engine != nil {
		if ok, why := r.Engine.Supports(t, sc); !ok {
			cell.Status, cell.Detail, cell.Cassette = report.StatusNA, why, ""
			return cell
		}
	}
	out := r.run(ctx, t, sc, nil, &cell)
	return r.judge(t, sc, cell, out)
}

// precheck starts a cell: it is judged (ok) unless the target's profile
// is missing (error) or the scenario does not apply to it (n/a).
func (r *Runner) precheck(t matrix.Target, sc Scenario) (report.Cell, bool) {
	cell := report.Cell{Target: t.ID, Scenario: sc.Name, Cassette: harness.Path("cassettes", t.ID, sc.Name)}
	p, ok := r.Profiles[t.Profile]
	if !ok {
		cell.Status = report.StatusError
		cell.Detail = fmt.Sprintf("bad input: %s:%d: target %s names profile %q, which is not among the provider profiles", r.Matrix.Path, t.Line, t.ID, t.Profile)
		return cell, false
	}
	if applies, why := sc.Applies(t, p); !applies {
		cell.Status, cell.Detail, cell.Cassette = report.StatusNA, why, ""
		return cell, false
	}
	return cell, true
}

// Try replays one scenario against a target's cassette through the
// reference engine with another decider (a wire variant) and returns what the scenario returned: nil, a
// *Failure, an *engine.RefusalError carrying the provider's recorded
// answer, or an error wrapping harness.ErrNoMatch. The conversation is
// returned for inspection.
func (r *Runner) Try(ctx context.Context, t matrix.Target, sc Scenario, d engine.Decider) (*Conv, error) {
	var cell report.Cell
	out := r.run(ctx, t, sc, d, &cell)
	return out.conv, out.err
}

// outcome is what a replayed scenario produced.
type outcome struct {
	conv     *Conv
	err      error
	notes    []string
	advisory string
	misses   []harness.Miss
	unused   int
	recorded int
	loose    []harness.LooseMatch
	judged   []harness.Judgement
	profile  *providers.Profile
}

// run replays one scenario: through the reference engine with decider d
// when d is set, else through the runner's implementation.
func (r *Runner) run(ctx context.Context, t matrix.Target, sc Scenario, d engine.Decider, cell *report.Cell) outcome {
	path := harness.Path(r.CassetteDir, t.ID, sc.Name)
	replay, err := r.Cassettes.OpenReplay(path)
	if errors.Is(err, harness.ErrNoCassette) {
		return outcome{err: fmt.Errorf("%w: no cassette; record it with: replaycheck record --target %s --scenario %s", harness.ErrNoMatch, t.ID, sc.Name)}
	}
	if err != nil {
		return outcome{err: &InputError{Err: err}}
	}
	defer replay.Close()
	if !r.StrictReplay {
		m, err := r.matching(t)
		if err != nil {
			return outcome{err: &InputError{Err: err}}
		}
		replay.Matching = m
	}
	if pv := replay.File.Provenance; pv.Target != t.ID || pv.Scenario != sc.Name {
		return outcome{err: &InputError{Err: fmt.Errorf("%s: provenance names %s/%s, but the file is the cassette of %s/%s", path, pv.Target, pv.Scenario, t.ID, sc.Name)}}
	}
	cell.Provenance = replay.File.Provenance.Label()
	if replay.File.Provenance.Kind == harness.Recorded {
		cell.Recorded = harness.Path("cassettes", t.ID, sc.Name) // a (rec) cell names its recorded cassette
	}
	dia, err := dialects.For(t.Route.APIMode, r.table())
	if err != nil {
		return outcome{err: err}
	}
	tmp, err := os.MkdirTemp("", "replaycheck-run-*")
	if err != nil {
		return outcome{err: err}
	}
	defer os.RemoveAll(tmp)
	table := r.table()
	var impl Implementation = Reference{Table: table, Decider: d, Dir: tmp}
	if d == nil && r.Engine != nil {
		if impl, err = r.Engine.Open(ctx, tmp); err != nil {
			return outcome{err: err}
		}
	}
	c := &Conv{
		Target: t, Impl: impl, Dialect: dia,
		Client:  &http.Client{Transport: replay},
		Session: &engine.Session{ID: t.ID},
		Replay:  replay,
		Profile: r.Profiles[t.Profile],
		Table:   table,
	}
	err = sc.Run(ctx, c)
	var capture *engine.CaptureError
	if _, reference := impl.(Reference); reference && errors.As(err, &capture) {
		// The reference engine could not capture a recorded answer: name
		// it, so a corrupt recorded body is found by its index.
		err = &InputError{Err: fmt.Errorf("%s: interaction %d (the last answer replayed): %w", path, replay.LastServed(), err)}
	}
	return outcome{conv: c, err: err, notes: c.notes, advisory: c.advisory, misses: replay.Misses(),
		unused: len(replay.Unused()), recorded: len(replay.File.Interactions),
		loose: replay.LooseMatches(), judged: replay.Judgements(), profile: replay.Matching.ProfileOf()}
}

// judge turns an outcome into a cell, applying declared known failures.
func (r *Runner) judge(t matrix.Target, sc Scenario, cell report.Cell, out outcome) report.Cell {
	var failure *Failure
	var refusal *engine.RefusalError
	var unsupported *UnsupportedError
	var stepFailed StepFailure
	var notApplicable *NotApplicableError
	switch {
	case errors.As(out.err, &unsupported):
		cell.Status, cell.Detail, cell.Provenance, cell.Cassette = report.StatusNA, unsupported.Error()+judgedBefore(out), "", ""
		return cell
	case errors.As(out.err, &notApplicable):
		cell.Status, cell.Detail, cell.Provenance, cell.Cassette = report.StatusNA, notApplicable.Reason, "", ""
		return cell
	case out.err == nil:
		cell.Status = report.StatusPass
		cell.Detail = strings.Join(out.notes, "; ")
		if out.advisory != "" {
			cell.Status = report.StatusAdvisory
			cell.Detail = out.advisory
		}
		if out.recorded > 0 {
			cell.Detail = strings.TrimPrefix(cell.Detail+fmt.Sprintf("; used %d of %d recorded interactions", out.recorded-out.unused, out.recorded), "; ")
		}
	case errors.Is(out.err, harness.ErrNoMatch):
		cell.Status = report.StatusUnverified
		cell.Detail = "the engine sent a request this cassette has no recorded answer for: record it"
		if out.profile != nil {
			cell.Detail = "the engine sent a request this cassette has no recorded answer for, and its provider's profile could not judge it either: record it"
		}
		if len(out.misses) > 0 {
			m := out.misses[0]
			cell.Actual = fmt.Sprintf("%s %s", m.Method, m.Path)
			cell.Expected = m.Explain()
		} else {
			cell.Detail = out.err.Error()
		}
	case errors.As(out.err, &refusal):
		cell.Status = report.StatusFail
		cell.Detail = fmt.Sprintf("the provider refused the request (%d)", refusal.Status)
		cell.ProviderError = string(refusal.Body)
		cell.Expected = "the request accepted"
		cell.Actual = fmt.Sprintf("refused with %d", refusal.Status)
	case errors.As(out.err, &failure):
		cell.Status = report.StatusFail
		cell.Detail = failure.What
		cell.Expected, cell.Actual = failure.Expected, failure.Actual
		if strings.Contains(failure.Actual, "refused") {
			cell.ProviderError = failure.Actual
		}
	case errors.As(out.err, &stepFailed):
		cell.Status = report.StatusFail
		cell.Detail = fmt.Sprintf("the implementation failed its %s step: %s", stepFailed.FailedStep(), stepFailed.Error())
	default:
		cell.Status = report.StatusError
		cell.Detail = "harness error: " + out.err.Error()
		var input *InputError
		if errors.As(out.err, &input) {
			cell.Detail = "bad input: " + input.Err.Error()
		}
	}
	if cell.Status != report.StatusError && cell.Status != report.StatusUnverified {
		annotate(&cell, out)
	}
	r.classify(t, &cell, out)
	if cell.Status == report.StatusPass || cell.Status == report.StatusAdvisory {
		cell.Cassette = ""
	}
	if cell.Status == report.StatusError {
		return cell // not judged, so neither a known failure nor a pass
	}
	decl := r.declarations()
	if k, declared := cellDeclaration(decl.KnownFailure, cell.Target, t.ID, sc.Name); declared {
		switch {
		case cell.Status == report.StatusFail && k.Cause != "" && !failsFor(cell, k.Cause):
			cell.Detail = fmt.Sprintf("declared as a known failure in %s:%d for %q, %s%s", decl.DeclaredIn(), k.Line, k.Cause, OtherCause, cell.Detail)
		case cell.Status == report.StatusFail:
			cell.Status = report.StatusKnownFail
			cell.Detail = "known failure: " + k.Reason + " (" + cell.Detail + ")"
		case cell.Status == report.StatusPass, cell.Status == report.StatusAdvisory:
			cell.Status = report.StatusFail
			cell.Detail = fmt.Sprintf("declared as a known failure in %s:%d but it passes now: remove the declaration", decl.DeclaredIn(), k.Line)
		}
		return cell
	}
	return r.judgeAdvisory(t, sc, cell)
}

// cellDeclaration returns the declaration of a cell: an alias's own
// ("gemini-openai~1"), or else its target's, which holds for its aliases.
func cellDeclaration(lookup func(target, scenario string) (matrix.KnownFailure, bool), row, target, sc string) (matrix.KnownFailure, bool) {
	if k, ok := lookup(row, sc); ok {
		return k, true
	}
	return lookup(target, sc)
}

// failsFor reports whether a failing cell's evidence (its detail, what it
// expected and saw, the provider's error, JSON string escapes read) holds
// the cause a known failure is declared for.
func failsFor(cell report.Cell, cause string) bool {
	evidence := strings.Join([]string{cell.Detail, cell.Expected, cell.Actual, cell.ProviderError}, "\n")
	return strings.Contains(strings.ReplaceAll(evidence, `\"`, `"`), cause)
}

// OtherCause marks the detail of a known failure that fails for another
// cause than the one declared: it fails.
const OtherCause = "but it fails for another cause: "

// UndeclaredAdvisory opens the detail of an advisory cell no declaration
// covers: it fails.
const UndeclaredAdvisory = "undeclared advisory: "

// UndeclaredWhy follows an undeclared advisory's finding in its detail.
const UndeclaredWhy = ": the provider reads reasoning the route does not send, so the model reasons again from scratch"

// judgeAdvisory holds an advisory cell (the provider reads reasoning the
// route does not send) to the table's advisories: declarations. Losing
// reasoning the provider reads is a failure unless the table says why it
// does so on purpose; a declaration whose cell no longer is advisory is
// stale, and fails until removed.
func (r *Runner) judgeAdvisory(t matrix.Target, sc Scenario, cell report.Cell) report.Cell {
	decl := r.declarations()
	a, declared := cellDeclaration(decl.Advisory, cell.Target, t.ID, sc.Name)
	switch {
	case declared && cell.Status == report.StatusAdvisory:
		cell.Detail = "declared advisory: " + a.Reason + " (" + cell.Detail + ")"
	case declared && cell.Status == report.StatusPass:
		cell.Status = report.StatusFail
		cell.Detail = fmt.Sprintf("declared as an advisory in %s:%d but the route now sends what the provider reads: remove the declaration", decl.DeclaredIn(), a.Line)
	case cell.Status == report.StatusAdvisory:
		where := "under advisories: in " + decl.DeclaredIn()
		if _, none := decl.(noDeclarations); none {
			where = "in the implementation's expectations file (--expect)"
		}
		cell.Status, cell.Verdict = report.StatusFail, report.VerdictAnswer
		cell.Detail = UndeclaredAdvisory + cell.Detail + UndeclaredWhy + "; send it, or declare the cell " + where + " with the reason"
	}
	return cell
}

// Declarations are the cells an implementation is expected to fail or
// leave advisory, and the file that declares them.
type Declarations interface {
	KnownFailure(target, scenario string) (matrix.KnownFailure, bool)
	Advisory(target, scenario string) (matrix.KnownFailure, bool)
	DeclaredIn() string
}

// declarations are the runner's: its Expect, else matrix.yaml's for the
// reference engine; matrix.yaml's are the reference table's, so none
// apply to another implementation without expectations of its own.
func (r *Runner) declarations() Declarations {
	switch {
	case r.Expect != nil:
		return r.Expect
	case r.Engine == nil:
		return r.Matrix
	}
	return noDeclarations{}
}

// noDeclarations declare nothing: an implementation with no expectations.
type noDeclarations struct{}

func (noDeclarations) KnownFailure(string, string) (matrix.KnownFailure, bool) {
	return matrix.KnownFailure{}, false
}
func (noDeclarations) Advisory(string, string) (matrix.KnownFailure, bool) {
	return matrix.KnownFailure{}, false
}
func (noDeclarations) DeclaredIn() string { return "" }

// RunMatrix runs every selected target × scenario (all when the selections
// are empty) and returns the matrix; progress, when set, is called after
// each cell. A selected alias name ("deepseek~1") runs that alias's cells
// after its target's, as a row of its own.
func (r *Runner) RunMatrix(ctx context.Context, targets, scenarios []string, progress func(report.Cell)) (*report.Matrix, error) {
	info := r.Implementation()
	m := &report.Matrix{Implementation: &info}
	for _, sc := range All() {
		if len(scenarios) == 0 || slices.Contains(scenarios, sc.Name) {
			m.Scenarios = append(m.Scenarios, sc.Name)
		}
	}
	for _, name := range scenarios {
		if _, ok := ByName(name); !ok {
			return nil, fmt.Errorf("unknown scenario %q (want one of %s)", name, strings.Join(matrix.Scenarios, ", "))
		}
	}
	for _, id := range targets {
		_, ok := r.Matrix.Target(id)
		if _, _, alias := r.Matrix.Alias(id); !ok && !alias {
			return nil, fmt.Errorf("unknown target %q", id)
		}
	}
	row := func(name string, cell func(Scenario) report.Cell) {
		m.Targets = append(m.Targets, name)
		for _, scName := range m.Scenarios {
			sc, _ := ByName(scName)
			c := cell(sc)
			m.Cells = append(m.Cells, c)
			if progress != nil {
				progress(c)
			}
		}
	}
	for _, t := range r.Matrix.Targets {
		if len(targets) == 0 || slices.Contains(targets, t.ID) {
			row(t.ID, func(sc Scenario) report.Cell { return r.Cell(ctx, t, sc) })
		}
		for i := range t.Aliases {
			if slices.Contains(targets, t.AliasName(i)) {
				row(t.AliasName(i), func(sc Scenario) report.Cell { return r.AliasCell(ctx, t, i, sc) })
			}
		}
	}
	return m, nil
}
