package scenario_test

import (
	"context"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// variant is the reference engine with one step changed, as an Engine.
type variant struct {
	name string
	wrap func(scenario.Reference) scenario.Implementation
	t    *engine.Table
}

func (v variant) Info() report.Implementation {
	return report.Implementation{Name: v.name, Version: "0"}
}

func (variant) Supports(matrix.Target, scenario.Scenario) (bool, string) { return true, "" }

func (v variant) Open(_ context.Context, dir string) (scenario.Implementation, error) {
	return v.wrap(scenario.Reference{Table: v.t, Dir: dir}), nil
}

// ownTable applies its route table inside conversion: it shapes with its
// own decision for the session as it stands, whatever decision it is
// handed (an agent that re-applies its table while converting messages).
type ownTable struct{ scenario.Reference }

func (o ownTable) Shape(ctx context.Context, s *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	own, err := o.Reference.Decide(ctx, d.Route, s.Config.RejectedFor(d.Route.Key()))
	if err != nil {
		return nil, err
	}
	return o.Reference.Shape(ctx, s, own, req)
}

func (o ownTable) Reshape(ctx context.Context, _ []byte, s *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	return o.Shape(ctx, s, d, req)
}

// deaf never learns a refusal.
type deaf struct{ scenario.Reference }

func (deaf) Learn(context.Context, *engine.Session, engine.Decision, []byte, int, []byte) (string, bool, error) {
	return "", false, nil
}

// forgetful loses the model config when it reloads a session, so it
// relearns the refusal after resume.
type forgetful struct{ scenario.Reference }

func (f forgetful) Reload(ctx context.Context, s *engine.Session) (*engine.Session, error) {
	got, err := f.Reference.Reload(ctx, s)
	if err == nil {
		got.Config = engine.ModelConfig{}
	}
	return got, err
}

// TestFallbackProviderDrift: where the route sends a carrier (Fireworks
// sends reasoning_content) the provider drifts to refusing it, so an
// implementation that applies its own table learns through that table and
// passes; one that does not learn, or forgets what it learnt on resume,
// fails. Where the route sends nothing (Mistral's strict row) the stale
// row is played, and an implementation that does not shape the decision it
// is handed is n/a there, not failed.
func TestFallbackProviderDrift(t *testing.T) {
	f, profiles := scenariotest.Committed(t)
	tests := []struct {
		impl   func(scenario.Reference) scenario.Implementation
		target string
		status report.Status
		detail string
		reason string
	}{
		{func(r scenario.Reference) scenario.Implementation { return r }, "fireworks", report.StatusPass,
			"the provider drifted to refusing reasoning_content (rule drift-reasoning-content, worded as its rule reasoning-extra-input", "the reference learns the drift"},
		{func(r scenario.Reference) scenario.Implementation { return ownTable{r} }, "fireworks", report.StatusPass,
			"learnt reasoning_content from the refusal and retried once", "learning through its own table passes"},
		{func(r scenario.Reference) scenario.Implementation { return deaf{r} }, "fireworks", report.StatusFail,
			"the provider refused the request (400)", "an implementation that never learns fails"},
		{func(r scenario.Reference) scenario.Implementation { return forgetful{r} }, "fireworks", report.StatusFail,
			"the resumed session's model config", "one that forgets the verdict on resume fails"},
		{func(r scenario.Reference) scenario.Implementation { return r }, "mistral", report.StatusPass,
			"learnt reasoning_content,reasoning,reasoning_details from the refusal", "a strict row plays the stale row"},
		{func(r scenario.Reference) scenario.Implementation { return ownTable{r} }, "mistral", report.StatusNA,
			"does not shape the stale row it is handed", "no drift and no stale row to play: n/a"},
		{func(r scenario.Reference) scenario.Implementation { return forgetful{r} }, "mistral", report.StatusFail,
			"the resumed session's model config", "the stale row still catches a forgetful implementation"},
	}
	for _, tc := range tests {
		r := &scenario.Runner{Matrix: f, Profiles: profiles, CassetteDir: "../cassettes", StrictReplay: true,
			Engine: variant{name: "variant", wrap: tc.impl, t: &f.Table}, Expect: f}
		m, err := r.RunMatrix(context.Background(), []string{tc.target}, []string{"fallback"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		c := m.Cells[0]
		if c.Status != tc.status || !strings.Contains(c.Detail, tc.detail) {
			t.Errorf("%s: %s = %s (%s), want %s with %q", tc.reason, c.ID(), c.Status, c.Detail, tc.status, tc.detail)
		}
	}
}
