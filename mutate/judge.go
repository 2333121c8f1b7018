package mutate

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/gate"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// An Outcome is what the gate makes of a mutant.
type Outcome string

// The outcomes, in report order.
const (
	// Killed: a regression is named.
	Killed Outcome = "killed"
	// Noticed: cells change, none regresses.
	Noticed Outcome = "noticed"
	// Survived: no cell changes, but some route's decision does.
	Survived Outcome = "survived"
	// Unverified: a cell the edit changes cannot be judged, because the
	// cassette has no recorded answer for what the route now sends (or it
	// could not be read). Never counted as "no change".
	Unverified Outcome = "unverified"
	// Equivalent: no route the table can be reached by decides
	// differently.
	Equivalent Outcome = "equivalent"
	// Invalid: the loader refuses the edited table, so no gate runs on it.
	Invalid Outcome = "invalid"
)

// Outcomes lists the outcomes in report order.
var Outcomes = []Outcome{Killed, Noticed, Survived, Unverified, Equivalent, Invalid}

// A Judged mutant is a mutant with its outcome and the evidence for it.
type Judged struct {
	Mutant
	Outcome Outcome
	// Route names the route whose decision the edit changes: a target or
	// alias ("kimi~1"), or for a survivor no checked route sees, the probe
	// route ("chat (custom, https://api.kimi.com/coding/v1, kimi-k2.6)").
	Route string
	// Change is the route's decision change ("echo kimi -> ''").
	Change string
	// Cell is the first regressed (or changed, or unjudged) cell:
	// "kimi~1/missing-echo: pass -> fail".
	Cell string
	// Why names the regression, or the reason for an equivalent or invalid
	// outcome.
	Why string
	// Needs is, for a survivor the table declares (survivors: in
	// matrix.yaml), the recording nobody has published that would kill
	// it; NeedsLine is the declaration's line.
	Needs     string
	NeedsLine int
}

// Options configure a mutation run.
type Options struct {
	// Profiles are the provider profiles by name.
	Profiles map[string]*providers.Profile
	// CassetteDir is the cassettes/ directory.
	CassetteDir string
	// Workers is the number of mutants judged at once; 0 is GOMAXPROCS.
	Workers int
	// Progress, when set, is called after each mutant is judged, from one
	// goroutine at a time, with the mutant and how many there are.
	Progress func(m Judged, total int)
	// Edits, when set, keeps only the mutants of these edits
	// ("drop api.kimi.com from echo_families[kimi].hosts").
	Edits []string
}

// A Report is the outcome of a mutation run.
type Report struct {
	// Path names the table mutated.
	Path    string
	Mutants []Judged
	// Probes is the number of routes tried before calling a mutant
	// equivalent.
	Probes int
	// Routes is the number of checked routes (targets and aliases).
	Routes int
	// Coverage is the table's coverage by targets and aliases.
	Coverage Coverage
	// Stale are the table's survivor declarations whose mutant does not
	// survive.
	Stale []StaleSurvivor
}

// Counts returns the number of mutants of each outcome.
func (r *Report) Counts() map[Outcome]int {
	out := map[Outcome]int{}
	for _, m := range r.Mutants {
		out[m.Outcome]++
	}
	return out
}

// Score returns the mutants the gate sees (killed or noticed) and the
// mutants it should see (every one that is neither equivalent nor
// invalid); unverified mutants count against the score.
func (r *Report) Score() (seen, total int) {
	c := r.Counts()
	seen = c[Killed] + c[Noticed]
	return seen, seen + c[Survived] + c[Unverified]
}

// Percent is the score in percent, 100 when there is nothing to see.
func (r *Report) Percent() float64 {
	seen, total := r.Score()
	if total == 0 {
		return 100
	}
	return 100 * float64(seen) / float64(total)
}

// Run generates the mutants of the table src (loaded as base) and judges
// each: decisions first, for every checked route; only the cells of the
// routes whose decision changed are replayed, each distinct decision of a
// route once.
func Run(ctx context.Context, base *matrix.File, src []byte, opts Options) (*Report, error) {
	mutants, err := Generate(base.Path, src)
	if err != nil {
		return nil, err
	}
	if len(opts.Edits) > 0 {
		mutants = slices.DeleteFunc(mutants, func(m Mutant) bool { return !slices.Contains(opts.Edits, m.Edit) })
	}
	j := newJudge(base, opts)
	rep := &Report{Path: base.Path, Mutants: make([]Judged, len(mutants)), Probes: len(j.probes), Routes: len(j.routes), Coverage: Cover(base)}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				rep.Mutants[i] = j.judge(ctx, mutants[i])
				if opts.Progress != nil {
					mu.Lock()
					opts.Progress(rep.Mutants[i], len(mutants))
					mu.Unlock()
				}
			}
		}()
	}
	for i := range mutants {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep.Stale = declareSurvivors(base, rep.Mutants, opts.Edits)
	return rep, nil
}

// judge holds what every mutant is compared with.
type judge struct {
	base      *matrix.File
	opts      Options
	routes    []checked
	baseDec   []decision
	probes    []engine.Route
	baseProbe []string
	// unreach holds, for each probe, why no model answers it at its host
	// (see [served]), or "" when a user may take it.
	unreach []string
	served  served

	mu    sync.Mutex
	cells map[string]*cellSet
	// cassettes are parsed once for every table judged.
	cassettes harness.Cache
}

// cellSet is the replayed cells of one route under one decision.
type cellSet struct {
	once  sync.Once
	cells []report.Cell
}

func newJudge(base *matrix.File, opts Options) *judge {
	s := newServed(opts.Profiles)
	j := &judge{base: base, opts: opts, routes: checkedRoutes(base), probes: probes(base, s.claude.listed()), served: s, cells: map[string]*cellSet{}}
	for _, c := range j.routes {
		j.baseDec = append(j.baseDec, decide(&base.Table, c.Route, s))
	}
	for _, p := range j.probes {
		j.baseProbe = append(j.baseProbe, decide(&base.Table, p, s).key())
	}
	j.unreach = unreachable(j.probes, s)
	return j
}

// cellsOf replays every scenario of a checked route with table, which
// decides d for it; each (route, decision) is replayed once.
func (j *judge) cellsOf(ctx context.Context, c checked, table *engine.Table, d decision) []report.Cell {
	key := c.Name + "\x01" + d.key()
	j.mu.Lock()
	cs, ok := j.cells[key]
	if !ok {
		cs = &cellSet{}
		j.cells[key] = cs
	}
	j.mu.Unlock()
	cs.once.Do(func() {
		// Strict replay, as the gate: a variant no cassette holds leaves the
		// mutant unverified rather than judged by the simulator.
		run := &scenario.Runner{Matrix: j.base, Table: table, Profiles: j.opts.Profiles, CassetteDir: j.opts.CassetteDir, StrictReplay: true, Cassettes: &j.cassettes}
		for _, sc := range scenario.All() {
			if c.Alias < 0 {
				cs.cells = append(cs.cells, run.Cell(ctx, c.Target, sc))
			} else {
				cs.cells = append(cs.cells, run.AliasCell(ctx, c.Target, c.Alias, sc))
			}
		}
	})
	return cs.cells
}

// AliasBaseline compares every alias's cells with its target's under the
// table f: an alias the table decides differently from its target (so
// that mutants are judged against a different start) is listed, unless
// the table declares the alias's own cell (a known failure or an
// advisory named by the alias: a route the table is known to serve worse
// than its target's). It replays every cell of every target and alias.
func AliasBaseline(ctx context.Context, f *matrix.File, opts Options) []string {
	return newJudge(f, opts).baseline(ctx)
}

func (j *judge) baseline(ctx context.Context) []string {
	var out []string
	var target []report.Cell
	for i, c := range j.routes {
		cells := j.cellsOf(ctx, c, &j.base.Table, j.baseDec[i])
		if c.Alias < 0 {
			target = cells
			continue
		}
		for k, cell := range cells {
			_, known := j.base.KnownFailure(c.Name, cell.Scenario)
			_, advisory := j.base.Advisory(c.Name, cell.Scenario)
			if cell.Status != target[k].Status && !known && !advisory {
				out = append(out, fmt.Sprintf("%s/%s: %s, but %s/%s is %s (%s)", cell.Target, cell.Scenario, cell.Status, c.Target.ID, cell.Scenario, target[k].Status, cell.Detail))
			}
		}
	}
	return out
}

// judge decides one mutant's outcome.
func (j *judge) judge(ctx context.Context, m Mutant) Judged {
	out := Judged{Mutant: m}
	mf, err := matrix.Parse(j.base.Path, m.Source)
	if err != nil {
		out.Outcome, out.Why = Invalid, "the loader refuses the edited table: "+err.Error()
		return out
	}
	table := &mf.Table
	changed := false
	for i, c := range j.routes {
		d := decide(table, c.Route, j.served)
		if d.key() == j.baseDec[i].key() {
			continue
		}
		before := j.cellsOf(ctx, c, &j.base.Table, j.baseDec[i])
		after := j.cellsOf(ctx, c, table, d)
		if r := j.compare(c, before, after, j.baseDec[i].diff(d)); !changed || better(r, out) {
			out = r
			out.Mutant = m
		}
		changed = true
		if out.Outcome == Killed {
			return out
		}
	}
	if changed {
		return out
	}
	modes := sectionModes(m.Section)
	var pruned prunedProbes
	for i, p := range j.probes {
		if modes != nil && !modes[mode(p)] {
			continue
		}
		d := decide(table, p, j.served)
		if d.key() != j.baseProbe[i] {
			if j.unreach[i] != "" {
				pruned.add(p, decide(&j.base.Table, p, j.served).diff(d), j.unreach[i])
				continue
			}
			out.Outcome, out.Route, out.Change = Survived, p.String(), decide(&j.base.Table, p, j.served).diff(d)
			out.Why = "no target or alias takes this route: add one that does (a target, or an alias judged against an existing target's cassettes)"
			return out
		}
	}
	out.Outcome = Equivalent
	if pruned.n > 0 {
		return pruned.equivalent(out, len(j.probes))
	}
	out.Why = fmt.Sprintf("none of %d routes (every target and alias, and each with one provider id, host, path or model the table names) decides differently", len(j.probes))
	return out
}

// rank orders outcomes by how much the gate sees: a killed mutant beats a
// noticed one, which beats an unverified one, which beats a survivor.
var rank = map[Outcome]int{Killed: 4, Noticed: 3, Unverified: 2, Survived: 1}

func better(a, b Judged) bool { return rank[a.Outcome] > rank[b.Outcome] }

// compare judges one route's cells before and after the edit.
func (j *judge) compare(c checked, before, after []report.Cell, change string) Judged {
	out := Judged{Outcome: Survived, Route: c.Name, Change: change, Why: "the decision of " + c.Name + " changes, but none of its cells does"}
	for k := range after {
		b, a := before[k], after[k]
		if b.Status == a.Status {
			continue
		}
		cell := fmt.Sprintf("%s/%s: %s -> %s", a.Target, a.Scenario, b.Status, a.Status)
		kind, why := gate.Classify(b, a)
		switch {
		case a.Status == report.StatusError || a.Status == report.StatusUnverified:
			if rank[Unverified] > rank[out.Outcome] {
				out.Outcome, out.Cell, out.Why = Unverified, cell, a.Detail
			}
		case kind == gate.Regression:
			out.Outcome, out.Cell, out.Why = Killed, cell, why
			return out
		default:
			if rank[Noticed] > rank[out.Outcome] {
				out.Outcome, out.Cell, out.Why = Noticed, cell, a.Detail
			}
		}
	}
	return out
}

// sectionModes is the set of api modes whose decisions an edit of a
// section can change, or nil for all: the native dialects' sections only
// decide their own mode; the carrier rows, flags and native fields only
// chat (no native dialect reads the flags or the native fields, see
// [decision]); the must-echo families every mode.
func sectionModes(section string) map[engine.APIMode]bool {
	switch section {
	case "anthropic":
		return map[engine.APIMode]bool{engine.ModeAnthropic: true}
	case "bedrock_converse":
		return map[engine.APIMode]bool{engine.ModeBedrockConverse: true}
	case "responses":
		return map[engine.APIMode]bool{engine.ModeResponses: true}
	case "carrier_routes", "local_endpoint", "default_carriers", "flags", "native_fields":
		return map[engine.APIMode]bool{engine.ModeChat: true}
	}
	return nil
}

func mode(r engine.Route) engine.APIMode {
	if r.APIMode == "" {
		return engine.ModeChat
	}
	return r.APIMode
}
