package gate

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// A job is one cell the gate judges: a cell of a head target or of one of
// its aliases, replayed under the head table, and under the base table
// unless only the head has it.
type job struct {
	t  matrix.Target
	sc scenario.Scenario
	// alias is the alias's index, or -1 for the target's own cell.
	alias int
	route engine.Route
	// line is the head table's line of the target or alias.
	line int
	// isNew marks a cell of a target or alias the base does not have.
	isNew bool
	// field prefixes the route change: "" for a target, "alias (…) of ID: "
	// for an alias; for a new one, the whole route change.
	field      string
	head, base report.Cell
}

// name is the job's row: the target's id, or the alias's name.
func (j *job) name() string {
	if j.alias < 0 {
		return j.t.ID
	}
	return j.t.AliasName(j.alias)
}

// cell replays the job's cell with run.
func (j *job) cell(ctx context.Context, run *scenario.Runner) report.Cell {
	if j.alias < 0 {
		return run.Cell(ctx, j.t, j.sc)
	}
	return run.AliasCell(ctx, j.t, j.alias, j.sc)
}

// aliasOf names an alias of a target: "alias (provider, base URL, model)
// of ID".
func aliasOf(a matrix.Alias, target string) string {
	return fmt.Sprintf("alias (%s, %s, %s) of %s", a.Route.Provider, a.Route.BaseURL, a.Route.Model, target)
}

// cellJobs lists the cells of the head's targets, then of their aliases,
// in file order. An alias is the base's when the base's target of the same
// id has an alias taking the same route.
func cellJobs(base, head *matrix.File) []*job {
	var jobs []*job
	for _, t := range head.Targets {
		_, known := base.Target(t.ID)
		for _, sc := range scenario.All() {
			j := &job{t: t, sc: sc, alias: -1, route: t.Route, line: t.Line, isNew: !known}
			if j.isNew {
				j.field = "new target"
			}
			jobs = append(jobs, j)
		}
	}
	for _, t := range head.Targets {
		bt, known := base.Target(t.ID)
		for i, a := range t.Aliases {
			route := aliasOf(a, t.ID)
			isNew := !known || aliasIndex(bt, a.Route) < 0
			for _, sc := range scenario.All() {
				j := &job{t: t, sc: sc, alias: i, route: a.Route, line: a.Line, isNew: isNew, field: route + ": "}
				if isNew {
					j.field = "new " + route
				}
				jobs = append(jobs, j)
			}
		}
	}
	return jobs
}

// run does every job on opts.Workers goroutines, reporting each head cell
// to opts.Progress in the order the jobs finish. It stops handing out jobs
// when ctx is done.
func run(ctx context.Context, jobs []*job, opts Options, do func(*job)) {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan *job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				do(j)
				if opts.Progress != nil {
					mu.Lock()
					opts.Progress(j.head)
					mu.Unlock()
				}
			}
		}()
	}
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		next <- j
	}
	close(next)
	wg.Wait()
}

// sameDeclaration reports whether base and head declare the same known
// failure and the same advisory (or none) for a target's scenario: its
// cells are then judged alike by both.
func sameDeclaration(base, head *matrix.File, target, sc string) bool {
	bk, bok := base.KnownFailure(target, sc)
	hk, hok := head.KnownFailure(target, sc)
	ba, baok := base.Advisory(target, sc)
	ha, haok := head.Advisory(target, sc)
	return bok == hok && bk.Reason == hk.Reason && baok == haok && ba.Reason == ha.Reason
}
