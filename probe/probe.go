package probe

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// Options configures a probe.
type Options struct {
	// Route is the new provider's route.
	Route engine.Route
	// Matrix is the current route table and targets; its Path must name
	// the file it was loaded from, whose text the proposal edits.
	Matrix *matrix.File
	// Record configures the recording (where requests go, credentials,
	// the request cap); TargetBaseURL is set from Route.
	Record harness.RecordOptions
	// Out is the directory the probe writes: the cassettes of the target's
	// column under Out/<target>/, the battery recorded only as evidence
	// under Out/evidence/<target>/.
	Out string
	// Date stamps recorded provenance and the draft profile's sources
	// (YYYY-MM-DD).
	Date string
}

// A Result is what a probe inferred and proposes.
type Result struct {
	Target matrix.Target
	// Notes say what the probe changed in the route it was given, or
	// could not tell, in words.
	Notes []string
	// Findings are the conclusions, each with the recorded variants that
	// show it.
	Findings []Finding
	// Accepted, Refused and Read are per standard carrier (chat routes):
	// accepted on an assistant message, refused (with the provider's
	// body), and read (the answer changed with it; only observable against
	// the simulator, see ReadObservable).
	Accepted map[engine.Carrier]bool
	Refused  map[engine.Carrier]Refusal
	Read     map[engine.Carrier]bool
	// ReadObservable is set when some recorded answer stated an earlier
	// conclusion, so whether a carrier is read could be told.
	ReadObservable bool
	// MustEcho is set when a bare tool turn without reasoning was refused
	// and the one-space pad accepted; BlankIsMissing when the same turn
	// with "" was refused too.
	MustEcho        bool
	MustEchoRefusal Refusal
	BlankIsMissing  bool
	// Signed lists the opaque fields the provider's responses carry.
	Signed []string
	// Emitted lists the reasoning fields of the provider's responses.
	Emitted []string
	// Carriers is the proposed carrier set (chat routes).
	Carriers engine.CarrierSet
	// Row is the carrier row the route takes under the proposal: an
	// existing row it joins, or the one the route already takes ("default",
	// "default-local"), or a new row named after the target; "native" on
	// other api modes.
	Row string
	// Native is what the proposal decides for a native route, in words.
	Native string
	// Edits are the proposed changes of matrix.yaml: the target first,
	// then the route table's.
	Edits []matrix.Edit
	// Draft is the draft provider profile: every rule quotes a recorded
	// body and names the variants that show it.
	Draft *providers.Profile
	// Scenarios are the scenarios the target is judged on (those the
	// draft profile says apply), recorded under Out/<target>/; Evidence
	// those recorded only as evidence, under Out/evidence/<target>/.
	Scenarios, Evidence []string
	// Provenance is the kind of the recordings.
	Provenance string
	// Column is the target's column of the matrix under the proposal.
	Column *report.Matrix
	// Interactions is how many interactions were recorded.
	Interactions int
	// Sent is how many requests reached the provider.
	Sent int

	plan plan
}

// A Refusal is a recorded 4xx answer.
type Refusal struct {
	Status int
	Body   string
}

// EvidenceDir is the directory under Out holding the cassettes recorded
// only as evidence: the battery scenarios the target is not judged on.
const EvidenceDir = "evidence"

// Run records the dialect's battery, infers the provider's behaviour,
// proposes a target, a route-table change and a draft profile, records
// every other scenario the target will be judged on under that proposal,
// and runs the target's column.
func Run(ctx context.Context, opts Options) (*Result, error) {
	route, notes := normaliseRoute(opts.Route)
	opts.Record.SendBaseURL = normaliseSend(route, opts.Record.SendBaseURL)
	id := TargetID(route.Provider)
	if _, exists := opts.Matrix.Target(id); exists {
		return nil, fmt.Errorf("probe: target %q is already in %s", id, opts.Matrix.Path)
	}
	target := matrix.Target{ID: id, Route: route, Profile: id}
	res := &Result{Target: target, Notes: notes, Accepted: map[engine.Carrier]bool{}, Refused: map[engine.Carrier]Refusal{}, Read: map[engine.Carrier]bool{}}
	rec := newRecorder(opts, target, res)
	evidence := filepath.Join(opts.Out, EvidenceDir)
	battery := Battery(route.APIMode)
	for _, name := range battery {
		if err := rec.record(ctx, batteryTable(opts.Matrix, route, name), nil, name, evidence); err != nil {
			return nil, err
		}
	}
	in := &inference{res: res, opts: opts, dir: evidence}
	if err := in.run(ctx); err != nil {
		return nil, err
	}
	adopted, err := res.propose(opts.Matrix)
	if err != nil {
		return nil, err
	}
	if err := res.recordColumn(ctx, rec, adopted, evidence); err != nil {
		return nil, err
	}
	return res, nil
}

// recordColumn records, under the adopted table, every scenario the draft
// profile says the target is judged on: a battery cassette moves from the
// evidence directory into the column, the others are recorded. A moved
// cassette whose cell the proposal leaves unverified is recorded again
// under the adopted table.
func (res *Result) recordColumn(ctx context.Context, rec *recorder, adopted *matrix.File, evidence string) error {
	t := res.Target
	battery := Battery(t.Route.APIMode)
	res.Scenarios, res.Evidence = nil, nil
	for _, sc := range scenario.All() {
		applies, _ := sc.Applies(t, res.Draft)
		inBattery := slices.Contains(battery, sc.Name)
		switch {
		case applies && inBattery:
			res.Scenarios = append(res.Scenarios, sc.Name)
			if err := move(harness.Path(evidence, t.ID, sc.Name), harness.Path(rec.opts.Out, t.ID, sc.Name)); err != nil {
				return err
			}
		case applies:
			res.Scenarios = append(res.Scenarios, sc.Name)
			if err := rec.record(ctx, &adopted.Table, res.Draft, sc.Name, rec.opts.Out); err != nil {
				return err
			}
		case inBattery:
			res.Evidence = append(res.Evidence, sc.Name)
		}
	}
	column, err := res.column(ctx, adopted, rec.opts.Out)
	if err != nil {
		return err
	}
	var again []string
	for _, c := range column.Cells {
		if c.Status == report.StatusUnverified || c.Status == report.StatusError {
			again = append(again, c.Scenario)
		}
	}
	for _, name := range again {
		if err := rec.record(ctx, &adopted.Table, res.Draft, name, rec.opts.Out); err != nil {
			return err
		}
	}
	if len(again) > 0 {
		if column, err = res.column(ctx, adopted, rec.opts.Out); err != nil {
			return err
		}
	}
	res.Column = column
	return nil
}

// column runs the target's whole column of the matrix under the adopted
// table, replaying exactly (the draft profile is inferred from these very
// recordings, so it must not judge what they do not hold).
func (res *Result) column(ctx context.Context, adopted *matrix.File, dir string) (*report.Matrix, error) {
	t, ok := adopted.Target(res.Target.ID)
	if !ok {
		return nil, fmt.Errorf("probe: the adopted table has no target %s", res.Target.ID)
	}
	f := *adopted
	f.Targets = []matrix.Target{t}
	r := &scenario.Runner{Matrix: &f, Profiles: map[string]*providers.Profile{res.Target.ID: res.Draft}, CassetteDir: dir, StrictReplay: true}
	return r.RunMatrix(ctx, []string{res.Target.ID}, nil, nil)
}

// move renames a cassette, creating the directory it goes to.
func move(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.Rename(from, to)
}
