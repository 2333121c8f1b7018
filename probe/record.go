package probe

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// Battery returns the scenarios a probe records first, as evidence, for
// an api mode: the scenarios that mode's targets are judged on and whose
// wire variants isolate what the provider accepts.
func Battery(mode engine.APIMode) []string {
	switch mode {
	case engine.ModeChat:
		return []string{"carriers", "missing-echo", "strict-schema", "signed-roundtrip"}
	case engine.ModeAnthropic:
		return []string{"carriers", "missing-echo", "signed-roundtrip"}
	}
	return []string{"carriers", "signed-roundtrip"}
}

// batteryTable is the table a battery scenario is recorded under: the
// current one, except that an Anthropic route's missing-echo battery is
// recorded as a must-echo route's, so that the cassette holds the padded
// bare tool turn beside the unpadded one (the Anthropic dialect pads only
// a must-echo route, and the chat battery has a padded variant of its
// own).
func batteryTable(m *matrix.File, r engine.Route, name string) *engine.Table {
	t := &m.Table
	if r.APIMode != engine.ModeAnthropic || name != "missing-echo" {
		return t
	}
	alt := *t
	alt.EchoFamilies = append(slices.Clone(t.EchoFamilies), engine.EchoFamily{Name: "probe", ProvidersRaw: []string{r.Provider}})
	return &alt
}

// A recorder records the probe's cassettes within one request budget.
type recorder struct {
	opts   Options
	target matrix.Target
	res    *Result
	host   string
}

func newRecorder(opts Options, t matrix.Target, res *Result) *recorder {
	host := engine.Hostname(opts.Record.SendBaseURL)
	if host == "" {
		host = t.Route.Host()
	}
	return &recorder{opts: opts, target: t, res: res, host: host}
}

// record records one scenario's whole variant battery under table (p
// words the fallback scenario's drift) and writes it to dir.
func (r *recorder) record(ctx context.Context, table *engine.Table, p *providers.Profile, name, dir string) error {
	sc, ok := scenario.ByName(name)
	if !ok {
		return fmt.Errorf("probe: unknown scenario %q", name)
	}
	// --max-requests caps the whole probe, not each scenario: the
	// recording is told what the scenarios before it spent, so a cap it
	// hits is quoted as the user set it.
	ro := r.opts.Record
	ro.Spent = r.res.Sent
	if budget := ro.MaxRequests; budget > 0 && ro.Spent >= budget {
		return fmt.Errorf("%s/%s: %w (--max-requests %d)", r.target.ID, name, harness.ErrRequestCap, budget)
	}
	its, rec, err := scenario.RecordWith(ctx, r.target, table, p, sc, ro)
	var answer *harness.AnswerError
	if errors.As(err, &answer) {
		return fmt.Errorf("%s/%s: %w", r.target.ID, name, &NotJudgedError{Answer: answer})
	}
	if err != nil {
		return err
	}
	r.res.Sent += rec.Sent()
	f := scenario.CassetteFile(r.target, sc, its, rec, r.opts.Date, r.host)
	r.res.Provenance = f.Provenance.Kind
	r.res.Interactions += len(its)
	return harness.Write(harness.Path(dir, r.target.ID, name), f)
}
