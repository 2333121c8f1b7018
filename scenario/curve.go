package scenario

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/dialects"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/sim"
)

// The quality curve's session: CurveQuestions tool loops; the history is
// compacted to half the threshold whenever its estimate passes
// curveEvery times the estimate after the first question.
const (
	CurveQuestions = 60
	curveEvery     = 6
	curveSeed      = "replaycheck"
)

// QualityCurve runs the post-compaction quality curve of every target of
// mf: a CurveQuestions-question session against the target profile's
// simulator (in process, no network), once with the reference engine and
// once with the baseline that strips the kept turns' reasoning at
// compaction ([Regressions][0], the seed's "before") where the provider
// reads earlier reasoning (elsewhere stripping it changes no answer). Targets run in
// parallel; the result is in matrix order and the same bytes every run.
func QualityCurve(ctx context.Context, mf *matrix.File, profiles map[string]*providers.Profile) (*report.QualityCurve, error) {
	q := &report.QualityCurve{
		Questions:  CurveQuestions,
		Provenance: "simulated",
		Method:     report.CurveMethod(CurveQuestions, curveEvery),
		Targets:    make([]report.CurveTarget, len(mf.Targets)),
	}
	errs := make([]error, len(mf.Targets))
	work := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				q.Targets[i], errs[i] = curveTarget(ctx, mf, profiles, mf.Targets[i])
			}
		}()
	}
	for i := range mf.Targets {
		work <- i
	}
	close(work)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return q, nil
}

// curveTarget runs one target's two sessions.
func curveTarget(ctx context.Context, mf *matrix.File, profiles map[string]*providers.Profile, t matrix.Target) (report.CurveTarget, error) {
	out := report.CurveTarget{Target: t.ID}
	p, ok := profiles[t.Profile]
	if !ok {
		return out, fmt.Errorf("%s:%d: target %s names profile %q, which is not among the provider profiles", mf.Path, t.Line, t.ID, t.Profile)
	}
	s, err := sim.New(p, sim.Options{Seed: curveSeed})
	if err != nil {
		return out, fmt.Errorf("target %s: %w", t.ID, err)
	}
	table := &mf.Table
	d := table.Decide(t.Route, 0)
	out.Family = string(t.Route.APIMode)
	if !d.Native {
		row := d.Row
		if d.EchoFamily != "" && row == "default" {
			row = "must-echo"
		}
		out.Family += ": " + row
	}
	client := &http.Client{Transport: handlerTransport{s}}
	ref := Reference{Table: table}
	if out.Reference, out.Reads, err = curveSession(ctx, t, table, ref, client); err != nil {
		return out, fmt.Errorf("target %s: the reference session: %w", t.ID, err)
	}
	// Only a provider that reads earlier reasoning can show what stripping
	// it costs; elsewhere the baseline is not run (its curve is empty).
	if out.Reads == report.ReadsPrior {
		if out.Baseline, _, err = curveSession(ctx, t, table, stripsAtCompaction{ref, Regressions[0]}, client); err != nil {
			return out, fmt.Errorf("target %s: the baseline session: %w", t.ID, err)
		}
	}
	out.Reference.Settle()
	out.Baseline.Settle()
	return out, nil
}

// stripsAtCompaction is the baseline: the reference engine, but the turns
// compaction keeps lose what the regression strips.
type stripsAtCompaction struct {
	Reference
	g Regression
}

// Compact compacts, then strips the kept turns.
func (b stripsAtCompaction) Compact(ctx context.Context, s *engine.Session, d engine.Decision, threshold int) (engine.CompactResult, error) {
	res, err := b.Reference.Compact(ctx, s, d, threshold)
	if err == nil && res.Dropped > 0 {
		res.Session = b.g.Regress(res.Session)
	}
	return res, err
}

// curveSession runs one session and returns its series and what the
// provider reads, by its answers.
func curveSession(ctx context.Context, t matrix.Target, table *engine.Table, impl Implementation, client *http.Client) (report.CurveSeries, string, error) {
	var series report.CurveSeries
	dia, err := dialects.For(t.Route.APIMode, table)
	if err != nil {
		return series, "", err
	}
	c := &Conv{Target: t, Impl: impl, Dialect: dia, Client: client, Session: &engine.Session{ID: t.ID}}
	var inContext, seen []string // the conclusions of the turns in the history; of every turn
	reads := report.ReadsNothing
	threshold := 0
	for q := range CurveQuestions {
		d, err := c.Decision(ctx)
		if err != nil {
			return series, "", err
		}
		if threshold > 0 {
			estimate, err := impl.Estimate(ctx, c.Session, d)
			if err != nil {
				return series, "", err
			}
			if estimate > threshold {
				res, err := impl.Compact(ctx, c.Session, d, threshold/2)
				if err != nil {
					return series, "", err
				}
				if res.Dropped > 0 {
					kept := min(keptTurns(res.Session), len(inContext))
					inContext = inContext[len(inContext)-kept:]
					c.Session = res.Session
					series.Compactions = append(series.Compactions, q+1)
				}
			}
		}
		before := len(c.Session.Messages)
		answer, err := toolLoop(ctx, c, curveQuestion(q))
		var refusal *engine.RefusalError
		var failure *Failure
		if errors.As(err, &refusal) || errors.As(err, &failure) {
			c.Session.Messages = c.Session.Messages[:before] // the question goes unanswered
			series.Refused = append(series.Refused, q+1)
			series.Stated, series.InContext = append(series.Stated, 0), append(series.InContext, len(inContext))
			continue
		}
		if err != nil {
			return series, "", fmt.Errorf("question %d: %w", q+1, err)
		}
		stated := AnswerMemos(answer.Message)
		own := minus(stated, seen)
		seen = append(seen, own...)
		held := len(intersect(stated, inContext))
		series.Stated, series.InContext = append(series.Stated, held), append(series.InContext, len(inContext))
		switch {
		case held > 0:
			reads = report.ReadsPrior
		case len(own) > 0 && reads == report.ReadsNothing:
			reads = report.ReadsCurrent
		}
		inContext = append(inContext, own...)
		if threshold == 0 {
			estimate, err := impl.Estimate(ctx, c.Session, d)
			if err != nil {
				return series, "", err
			}
			threshold = curveEvery * estimate
		}
	}
	return series, reads, nil
}

// curveQuestion is the session's question q (0-based): each distinct, so
// each turn's reasoning carries its own memo.
func curveQuestion(q int) string {
	return fmt.Sprintf("Step %d: %s", q+1, questions[q%len(questions)])
}

// keptTurns counts the turns (questions) a compacted history holds.
func keptTurns(s *engine.Session) int {
	n := 0
	for _, m := range s.Messages {
		if _, summary := m.Extra[engine.SummaryKey]; m.Role == "user" && !summary {
			n++
		}
	}
	return n
}

// handlerTransport answers requests with an http.Handler in process: the
// simulator without a socket.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, req)
	res := rec.Result()
	res.Request = req
	return res, nil
}
