package probe

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// Scenarios are the scripts a probe records: they carry the evidence the
// inference needs.
var Scenarios = []string{"carriers", "missing-echo", "strict-schema", "signed-roundtrip"}

// Options configures a probe.
type Options struct {
	// Route is the new provider's route.
	Route engine.Route
	// Matrix is the current route table and targets.
	Matrix *matrix.File
	// Record configures the recording (where requests go, credentials,
	// the request cap); TargetBaseURL is set from Route.
	Record harness.RecordOptions
	// Out is the cassette directory the probe writes.
	Out string
	// Date stamps recorded provenance (YYYY-MM-DD).
	Date string
}

// A Result is what a probe inferred and proposes.
type Result struct {
	Target matrix.Target
	// Accepted, Refused and Read are per standard carrier: accepted on an
	// assistant message, refused (with the provider's body), and read (the
	// answer changed with it; only observable against the simulator).
	Accepted map[engine.Carrier]bool
	Refused  map[engine.Carrier]Refusal
	Read     map[engine.Carrier]bool
	// MustEcho is set when a bare tool turn without reasoning_content was
	// refused and the one-space pad accepted.
	MustEcho        bool
	MustEchoRefusal Refusal
	// Signed lists the opaque fields the provider's responses carry.
	Signed []string
	// Emitted lists the reasoning fields of the provider's responses.
	Emitted []string
	// Carriers is the proposed carrier set.
	Carriers engine.CarrierSet
	// Row is the id of the existing row whose carriers match, or "" when a
	// new row is proposed.
	Row string
	// Provenance is the kind of the recordings.
	Provenance string
	// Column is the target's column of the matrix under the proposal.
	Column *report.Matrix
	// Interactions is how many requests were recorded.
	Interactions int
	// Sent is how many requests reached the provider.
	Sent int
}

// A Refusal is a recorded 4xx answer.
type Refusal struct {
	Status int
	Body   string
}

var idSyntax = regexp.MustCompile(`[^a-z0-9]+`)

// TargetID derives a kebab-case target id from a provider id.
func TargetID(provider string) string {
	id := strings.Trim(idSyntax.ReplaceAllString(strings.ToLower(provider), "-"), "-")
	if id == "" {
		id = "probe"
	}
	return id
}

// Run records the battery and infers the provider's profile.
func Run(ctx context.Context, opts Options) (*Result, error) {
	id := TargetID(opts.Route.Provider)
	target := matrix.Target{ID: id, Route: opts.Route, Profile: id}
	if _, exists := opts.Matrix.Target(id); exists {
		return nil, fmt.Errorf("probe: target %q is already in %s", id, opts.Matrix.Path)
	}
	res := &Result{Target: target, Accepted: map[engine.Carrier]bool{}, Refused: map[engine.Carrier]Refusal{}, Read: map[engine.Carrier]bool{}}
	host := engine.Hostname(opts.Record.SendBaseURL)
	if host == "" {
		host = engine.Hostname(opts.Route.BaseURL)
	}
	budget := opts.Record.MaxRequests
	for _, name := range Scenarios {
		sc, _ := scenario.ByName(name)
		ro := opts.Record
		if budget > 0 {
			// --max-requests caps the whole probe, not each scenario.
			ro.MaxRequests = max(budget-res.Sent, 0)
			if ro.MaxRequests == 0 {
				return nil, fmt.Errorf("probe: %s: %w (--max-requests %d)", name, harness.ErrRequestCap, budget)
			}
		}
		ro.Transport = stopAtNotJudged(opts.Record.Transport, opts.Record.Secrets)
		its, rec, err := scenario.Record(ctx, target, &opts.Matrix.Table, sc, ro)
		var notJudged *NotJudgedError
		if errors.As(err, &notJudged) {
			return nil, fmt.Errorf("probe %s: %s: %w", id, name, notJudged)
		}
		if err != nil {
			return nil, err
		}
		res.Sent += rec.Sent()
		f := scenario.CassetteFile(target, sc, its, rec, opts.Date, host)
		res.Provenance = f.Provenance.Kind
		res.Interactions += len(its)
		if err := harness.Write(harness.Path(opts.Out, id, name), f); err != nil {
			return nil, err
		}
	}
	if err := res.infer(ctx, opts); err != nil {
		return nil, err
	}
	return res, nil
}

// infer replays the recorded battery with single-variant deciders.
func (res *Result) infer(ctx context.Context, opts Options) error {
	t := res.Target
	draft := res.assumedProfile()
	// Strict replay: the draft profile is inferred from these very
	// recordings, so it must not judge what they do not hold.
	r := &scenario.Runner{Matrix: opts.Matrix, Profiles: map[string]*providers.Profile{t.ID: draft}, CassetteDir: opts.Out, StrictReplay: true}
	base := opts.Matrix.Table.Decide(t.Route, 0)
	try := func(name string, carriers engine.CarrierSet, pad bool) (*scenario.Conv, error) {
		d := base
		d.Carriers, d.Pad = carriers, pad
		sc, _ := scenario.ByName(name)
		return r.Try(ctx, t, sc, scenario.Fixed(d))
	}
	none, err := try("carriers", 0, false)
	if err != nil && !isAnswer(err) {
		return fmt.Errorf("probe: replaying the bare battery: %w", err)
	}
	seen := len(answerMemos(none))
	if none != nil && len(none.Session.Messages) > 1 {
		res.Emitted = emittedFields(none.Session.Messages[1])
	}
	for _, c := range engine.AllCarriers {
		// The strict-schema script's one turn replays another provider's
		// reasoning on every carrier: its first request is the evidence.
		conv, err := try("strict-schema", engine.NewCarrierSet(c), false)
		switch {
		case err != nil && !isAnswer(err):
			return fmt.Errorf("probe: replaying %s: %w", c, err)
		case conv == nil || len(conv.Exchanges) == 0:
			return fmt.Errorf("probe: replaying %s: no request was sent", c)
		case conv.Exchanges[0].Status/100 == 2:
			res.Accepted[c] = true
		default:
			res.Refused[c] = Refusal{Status: conv.Exchanges[0].Status, Body: string(conv.Exchanges[0].Response)}
		}
		if own, err := try("carriers", engine.NewCarrierSet(c), false); err == nil && len(answerMemos(own)) > seen {
			res.Read[c] = true
		}
	}
	_, bare := try("missing-echo", engine.NewCarrierSet(engine.ReasoningContent), false)
	_, padded := try("missing-echo", engine.NewCarrierSet(engine.ReasoningContent), true)
	var refusal *engine.RefusalError
	if errors.As(bare, &refusal) && padded == nil {
		res.MustEcho = true
		res.MustEchoRefusal = Refusal{Status: refusal.Status, Body: string(refusal.Body)}
	}
	if conv, _ := try("signed-roundtrip", base.Carriers, base.Pad); conv != nil && len(conv.Exchanges) > 0 {
		res.Signed = scenario.OpaqueFields(conv.Exchanges[0].Response)
	}
	res.propose(opts.Matrix)
	column, err := res.column(ctx, opts)
	if err != nil {
		return err
	}
	res.Column = column
	return nil
}

// isAnswer reports whether err is a scenario outcome (an assertion or the
// provider's refusal) rather than a harness failure.
func isAnswer(err error) bool {
	var f *scenario.Failure
	var refusal *engine.RefusalError
	return errors.As(err, &f) || errors.As(err, &refusal)
}

func answerMemos(c *scenario.Conv) []string {
	if c == nil || len(c.Session.Messages) == 0 {
		return nil
	}
	return scenario.AnswerMemos(c.Session.Messages[len(c.Session.Messages)-1])
}

// propose picks the carriers: those the provider reads when reading is
// observable, else those it accepts; and the existing row that already
// sends exactly them.
func (res *Result) propose(m *matrix.File) {
	var carriers engine.CarrierSet
	readKnown := len(res.Read) > 0
	for _, c := range engine.AllCarriers {
		if res.Accepted[c] && (!readKnown || res.Read[c]) {
			carriers = carriers.With(c)
		}
	}
	if res.MustEcho {
		carriers = carriers.With(engine.ReasoningContent)
	}
	res.Carriers = carriers
	if carriers == m.Table.Default {
		res.Row = "default"
		return
	}
	for _, row := range m.Table.Rows {
		if row.Carriers == carriers {
			res.Row = row.ID
			return
		}
	}
}

// Table returns the current table with the proposal applied: the provider
// added to the matching row, or a new row before the defaults, and a
// must-echo family when the provider needs the pad.
func (res *Result) Table(m *matrix.File) *engine.Table {
	t := m.Table
	t.Rows = slices.Clone(t.Rows)
	provider := strings.ToLower(strings.TrimSpace(res.Target.Route.Provider))
	if res.Row == "default" {
		// The default route already sends exactly these carriers.
	} else if res.Row != "" {
		for i := range t.Rows {
			if t.Rows[i].ID == res.Row {
				t.Rows[i].Providers = append(slices.Clone(t.Rows[i].Providers), provider)
			}
		}
	} else {
		t.Rows = append(t.Rows, engine.CarrierRow{ID: res.Target.ID, Carriers: res.Carriers, Providers: []string{provider}})
	}
	if res.MustEcho {
		t.EchoFamilies = append(slices.Clone(t.EchoFamilies), engine.EchoFamily{Name: res.Target.ID, Providers: []string{provider}})
	}
	return &t
}

// column runs the target's column of the matrix under the proposed table.
func (res *Result) column(ctx context.Context, opts Options) (*report.Matrix, error) {
	f := *opts.Matrix
	f.Targets = []matrix.Target{res.Target}
	f.KnownFailures = nil
	f.Table = *res.Table(opts.Matrix)
	p := res.DraftProfile(opts.Date)
	r := &scenario.Runner{Matrix: &f, Profiles: map[string]*providers.Profile{res.Target.ID: p}, CassetteDir: opts.Out, StrictReplay: true}
	return r.RunMatrix(ctx, []string{res.Target.ID}, Scenarios, nil)
}

// assumedProfile is the profile used while inferring: every probe
// scenario applies.
func (res *Result) assumedProfile() *providers.Profile {
	return &providers.Profile{
		Name: res.Target.ID, Version: 1, APIMode: string(res.Target.Route.APIMode),
		Rules: []providers.Rule{
			{ID: "probe-echo", When: providers.Condition{Kind: providers.ConditionToolTurnFieldMissing, Field: "reasoning_content"}},
			{ID: "probe-strict", When: providers.Condition{Kind: providers.ConditionAssistantFieldPresent, Field: "reasoning_content"}},
		},
		Signing: &providers.Signing{Scheme: "probe"},
	}
}
