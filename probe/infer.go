package probe

import (
	"context"
	"errors"
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/dialects"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// An inference replays the recorded battery with one wire variant at a
// time and reads each answer.
type inference struct {
	res  *Result
	opts Options
	// dir holds the battery's cassettes.
	dir string
	// rules and the rest become the draft profile.
	rules   []providers.Rule
	reads   []string
	signing *providers.Signing
	emits   providers.Emits
}

// run infers what the provider does with its dialect's battery and builds
// the draft profile.
func (in *inference) run(ctx context.Context) error {
	var err error
	switch in.res.Target.Route.APIMode {
	case engine.ModeChat:
		err = in.chat(ctx)
	case engine.ModeAnthropic:
		err = in.anthropic(ctx)
	case engine.ModeGemini:
		err = in.gemini(ctx)
	case engine.ModeResponses:
		err = in.responses(ctx)
	case engine.ModeBedrockConverse:
		err = in.converse(ctx)
	default:
		err = fmt.Errorf("probe: api mode %q has no battery", in.res.Target.Route.APIMode)
	}
	if err != nil {
		return err
	}
	in.res.Draft = in.draft()
	return nil
}

// try replays one battery scenario through the reference engine, with
// decider d (a chat wire variant) or under table (a native variant), and
// returns the conversation. A provider's refusal or a failed assertion is
// an answer; only a harness failure is an error, and a variant the
// battery does not hold gives a nil conversation.
func (in *inference) try(ctx context.Context, name string, d engine.Decider, table *engine.Table) (*scenario.Conv, error) {
	t := in.res.Target
	sc, ok := scenario.ByName(name)
	if !ok {
		return nil, fmt.Errorf("probe: unknown scenario %q", name)
	}
	f := *in.opts.Matrix
	f.Targets, f.KnownFailures = []matrix.Target{t}, nil
	r := &scenario.Runner{Matrix: &f, Table: table, Profiles: map[string]*providers.Profile{t.ID: assumed(t)}, CassetteDir: in.dir, StrictReplay: true}
	conv, err := r.Try(ctx, t, sc, d)
	switch {
	case errors.Is(err, harness.ErrNoMatch):
		return nil, nil
	case err != nil && !isAnswer(err):
		return nil, fmt.Errorf("probe: replaying the %s battery: %w", name, err)
	}
	return conv, nil
}

// exchange returns the conversation's request i and whether it was sent.
func exchange(c *scenario.Conv, i int) (engine.Exchange, bool) {
	if c == nil || i >= len(c.Exchanges) {
		return engine.Exchange{}, false
	}
	return c.Exchanges[i], true
}

// isAnswer reports whether err is a scenario outcome (an assertion or the
// provider's refusal) rather than a harness failure.
func isAnswer(err error) bool {
	var f *scenario.Failure
	var refusal *engine.RefusalError
	return errors.As(err, &f) || errors.As(err, &refusal)
}

// evidenceOf describes request i of a replayed conversation.
func (in *inference) evidenceOf(name, variant string, c *scenario.Conv, i int) Evidence {
	ex, ok := exchange(c, i)
	if !ok {
		return Evidence{Scenario: name, Variant: variant, Interaction: -1}
	}
	return in.evidenceOfExchange(name, variant, ex)
}

// evidenceOfExchange describes one request of the battery name.
func (in *inference) evidenceOfExchange(name, variant string, ex engine.Exchange) Evidence {
	t := in.res.Target
	return evidence(in.dir, t.Route, t.ID, name, variant, ex)
}

// find adds a finding.
func (in *inference) find(subject, verdict string, shown ...Evidence) Finding {
	f := Finding{Subject: subject, Verdict: verdict, Shown: shown}
	in.res.Findings = append(in.res.Findings, f)
	return f
}

// dialect is the reference dialect of the route under the current table.
func (in *inference) dialect() (engine.Dialect, error) {
	return dialects.For(in.res.Target.Route.APIMode, &in.opts.Matrix.Table)
}

// assumed is the profile every battery replay runs with: a profile under
// which every scenario applies, so that none is skipped.
func assumed(t matrix.Target) *providers.Profile {
	return &providers.Profile{
		Name: t.ID, Version: 1, APIMode: string(t.Route.APIMode),
		Rules: []providers.Rule{
			{ID: "probe-echo", When: providers.Condition{Kind: providers.ConditionToolTurnFieldMissing, Field: "reasoning_content"}},
			{ID: "probe-strict", When: providers.Condition{Kind: providers.ConditionAssistantFieldPresent, Field: "reasoning_content"}},
		},
		Signing: &providers.Signing{Scheme: "probe"},
	}
}
