package scenario

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/dialects"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/suites/harness"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Fixed returns a decider that always decides d (less recorded refusals):
// one wire variant.
func Fixed(d engine.Decision) engine.Decider { return fixedDecider{d} }

// fixedDecider plays one wire variant: a fixed decision, less the
// carriers recorded as refused, padded only while RC is a carrier. A
// native decision is played as is, as [engine.Table.Decide] gives it: its
// dialect pads (an unsigned Anthropic-compatible must-echo endpoint gets
// a " " thinking block) and subtracts no carrier.
type fixedDecider struct{ d engine.Decision }

func (f fixedDecider) Decide(r engine.Route, rejected engine.CarrierSet) engine.Decision {
	d := f.d
	d.Route = r
	if d.Native {
		return d
	}
	d.Rejected = d.Carriers.Intersect(rejected)
	d.Carriers = d.Carriers.Minus(rejected)
	d.Pad = d.Pad && d.Carriers.Has(engine.ReasoningContent)
	return d
}

// Variants returns the deciders of the wire-variant battery for a route:
// the table's own decision first, then, on chat routes, every subset of
// RC/R/RD with and without the pad, with and without the table's vendor
// flags and native fields, and last the table's decision with one flag
// value changed ([matrix.ChangedFlagValue]: a value the provider does not
// document), one variant per flag setting. Whatever a changed route table
// decides for the route, one of these variants sends the same bytes, so
// the change is judged from recorded evidence without re-recording.
func Variants(t *engine.Table, r engine.Route) []engine.Decider {
	out := []engine.Decider{t}
	d0 := t.Decide(r, 0)
	if d0.Native {
		return out
	}
	flagSets := [][]engine.FlagSetting{d0.Flags}
	if len(d0.Flags) > 0 {
		flagSets = append(flagSets, nil)
	}
	nativeSets := [][]string{d0.NativeFields}
	if len(d0.NativeFields) > 0 {
		nativeSets = append(nativeSets, []string{})
	}
	all := engine.NewCarrierSet(engine.AllCarriers...)
	for _, flags := range flagSets {
		for _, native := range nativeSets {
			for _, carriers := range all.Subsets() {
				for _, pad := range []bool{false, true} {
					if pad && !carriers.Has(engine.ReasoningContent) {
						continue
					}
					d := d0
					d.Carriers, d.Pad, d.Flags, d.NativeFields = carriers, pad, flags, native
					out = append(out, fixedDecider{d})
				}
			}
		}
	}
	return append(out, changedFlagVariants(d0)...)
}

// changedFlagVariants returns d with each of its scalar flag values
// changed in turn, one decider each.
func changedFlagVariants(d engine.Decision) []engine.Decider {
	var out []engine.Decider
	for i, s := range d.Flags {
		v, ok := matrix.ChangedFlagValue(s.Value)
		if !ok {
			continue
		}
		e := d
		e.Flags = slices.Clone(d.Flags)
		e.Flags[i].Value = v
		out = append(out, fixedDecider{e})
	}
	return out
}

// Record drives a scenario through the whole variant battery against an
// endpoint with a new recording and returns the scrubbed interactions,
// deduplicated and in the order they were first sent, and the recording
// (which knows whether a simulator answered). Provider refusals are
// evidence, not errors; only transport failures and the request cap stop
// a recording, and then nothing is returned.
func Record(ctx context.Context, t matrix.Target, table *engine.Table, sc Scenario, opts harness.RecordOptions) ([]*cassette.Interaction, *harness.Recording, error) {
	return RecordWith(ctx, t, table, nil, sc, opts)
}

// RecordWith is [Record] with the target's provider profile p, from which
// the fallback scenario words the provider's drift; the requests around a
// drifted refusal (the retry, the turn after resume) are then recorded in
// the battery too. On an Anthropic or Bedrock Converse route the scenario
// is then recorded again under every other native decision of the route
// ([nativeVariantTables]).
func RecordWith(ctx context.Context, t matrix.Target, table *engine.Table, p *providers.Profile, sc Scenario, opts harness.RecordOptions) ([]*cassette.Interaction, *harness.Recording, error) {
	dia, err := dialects.For(t.Route.APIMode, table)
	if err != nil {
		return nil, nil, err
	}
	tmp, err := os.MkdirTemp("", "replaycheck-record-*")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	opts.TargetBaseURL = t.Route.BaseURL
	if len(opts.NotServed) == 0 {
		// The profile's documented 404s are answers to keep.
		opts.NotServed = p.NotServedPaths()
	}
	rec, err := harness.StartRecording(opts)
	if err != nil {
		return nil, nil, err
	}
	for i, v := range Variants(table, t.Route) {
		c := &Conv{
			Target: t, Dialect: dia,
			Impl:    Reference{Table: table, Decider: v, Dir: tmp},
			Client:  &http.Client{Transport: rec},
			Session: &engine.Session{ID: fmt.Sprintf("%s-%d", t.ID, i)},
			Profile: p,
		}
		if err := sc.Run(ctx, c); err != nil && isTransportError(err) {
			rec.Abort()
			return nil, nil, fmt.Errorf("%s/%s: variant %d: %w", t.ID, sc.Name, i, err)
		}
	}
	for i, alt := range nativeVariantTables(table, t.Route) {
		c := &Conv{
			Target: t, Dialect: dia,
			Impl:    Reference{Table: alt, Dir: tmp},
			Client:  &http.Client{Transport: rec},
			Session: &engine.Session{ID: fmt.Sprintf("%s-native-%d", t.ID, i)},
			Profile: p,
		}
		if err := sc.Run(ctx, c); err != nil && isTransportError(err) {
			rec.Abort()
			return nil, nil, fmt.Errorf("%s/%s: native variant %d: %w", t.ID, sc.Name, i, err)
		}
	}
	its, err := rec.Finish()
	return its, rec, err
}

// isTransportError reports whether err is a network or harness failure
// rather than a provider's answer.
func isTransportError(err error) bool {
	var ue *url.Error
	return errors.As(err, &ue) || errors.Is(err, harness.ErrRequestCap) || errors.Is(err, context.Canceled)
}

// CassetteFile assembles a cassette from a finished recording: simulated
// provenance (profile and version) when a simulator answered, otherwise
// recorded provenance with the date (YYYY-MM-DD) and the host the requests
// went to. Never both.
func CassetteFile(t matrix.Target, sc Scenario, its []*cassette.Interaction, rec *harness.Recording, date, host string) *harness.File {
	p := harness.Provenance{Target: t.ID, Scenario: sc.Name}
	if name, version, ok := rec.Simulator(); ok {
		p.Kind, p.Profile, p.ProfileVersion = harness.Simulated, name, version
	} else {
		p.Kind, p.Date, p.Host = harness.Recorded, date, host
	}
	return &harness.File{Version: cassette.CassetteFormatV2, Provenance: p, Interactions: its}
}
