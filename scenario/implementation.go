package scenario

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/dialects"
	"github.com/replaycheck/replaycheck/engine/store"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
)

// An Implementation is the replay code a scenario checks: it answers every
// engine step the scripts need, each a pure step (data in, data out). The
// harness owns HTTP, the cassette, the order of the steps and the turn loop
// ([engine.RunTurn]). [Reference] is the reference engine in process; the
// engine protocol (package protocol) answers the same steps from another
// process, in any language.
//
// A step the implementation does not support returns an
// [*UnsupportedError]; the cell is then n/a with its reason.
type Implementation interface {
	engine.TurnSteps
	// Estimate is the preflight token estimate of the session's history on
	// the decided route (SPEC §7).
	Estimate(ctx context.Context, s *engine.Session, d engine.Decision) (int, error)
	// Compact summarises old turns away until the history fits threshold
	// (SPEC §7); it never edits s.
	Compact(ctx context.Context, s *engine.Session, d engine.Decision, threshold int) (engine.CompactResult, error)
	// Branch returns a new session with its own copy of s, named id.
	Branch(ctx context.Context, s *engine.Session, id string) (*engine.Session, error)
	// Reload stores s, closes the store, opens it again and loads the
	// session back: resume as the agent does it (SPEC §8).
	Reload(ctx context.Context, s *engine.Session) (*engine.Session, error)
}

// An UnsupportedError is an implementation's answer that it does not
// support a step; the cell becomes n/a with the reason.
type UnsupportedError struct {
	// Implementation names the implementation that answered.
	Implementation string
	// Step is the protocol step (decide, shape, capture, …).
	Step string
	// Reason is the implementation's own words.
	Reason string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%s does not support the %s step: %s", e.Implementation, e.Step, e.Reason)
}

// An Engine supplies the implementation every cell of a run is checked
// against. A nil Runner.Engine is the reference engine in process, with
// the runner's route table.
type Engine interface {
	// Info names the implementation for the report.
	Info() report.Implementation
	// Supports reports whether the implementation takes part in a cell
	// (its api modes and scenarios), and why not.
	Supports(t matrix.Target, sc Scenario) (bool, string)
	// Open returns the implementation for one cell; dir is the cell's
	// temporary directory.
	Open(ctx context.Context, dir string) (Implementation, error)
}

// ReferenceInfo names the reference engine in reports.
var ReferenceInfo = report.Implementation{
	Name:     "replaycheck-reference",
	Version:  "1",
	Language: "go",
}

// Reference is the reference engine (package engine and its dialects) as
// an [Implementation], in process.
type Reference struct {
	// Table is the route table the dialects read.
	Table *engine.Table
	// Decider overrides Table for the route decision (a wire variant).
	Decider engine.Decider
	// Dir holds the session store of Reload; "" means a new temporary
	// directory for each reload.
	Dir string
}

// steps returns the in-process steps of an api mode's dialect.
func (r Reference) steps(mode engine.APIMode) (engine.DialectSteps, error) {
	dia, err := dialects.For(mode, r.Table)
	if err != nil {
		return engine.DialectSteps{}, err
	}
	d := r.Decider
	if d == nil {
		d = r.Table
	}
	return engine.DialectSteps{Dialect: dia, Table: r.Table, Decider: d}, nil
}

// Decide applies the decider.
func (r Reference) Decide(ctx context.Context, rt engine.Route, rejected engine.CarrierSet) (engine.Decision, error) {
	st, err := r.steps(rt.APIMode)
	if err != nil {
		return engine.Decision{}, err
	}
	return st.Decide(ctx, rt, rejected)
}

// Shape shapes with the route's dialect.
func (r Reference) Shape(ctx context.Context, s *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	st, err := r.steps(d.Route.APIMode)
	if err != nil {
		return nil, err
	}
	return st.Shape(ctx, s, d, req)
}

// Reshape reshapes with the route's dialect.
func (r Reference) Reshape(ctx context.Context, body []byte, s *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	st, err := r.steps(d.Route.APIMode)
	if err != nil {
		return nil, err
	}
	return st.Reshape(ctx, body, s, d, req)
}

// Capture captures with the route's dialect.
func (r Reference) Capture(ctx context.Context, rt engine.Route, resp []byte, stream bool) (engine.Message, error) {
	st, err := r.steps(rt.APIMode)
	if err != nil {
		return engine.Message{}, err
	}
	return st.Capture(ctx, rt, resp, stream)
}

// Learn learns with the route's dialect and the table.
func (r Reference) Learn(ctx context.Context, s *engine.Session, d engine.Decision, sent []byte, status int, resp []byte) (string, bool, error) {
	st, err := r.steps(d.Route.APIMode)
	if err != nil {
		return "", false, err
	}
	return st.Learn(ctx, s, d, sent, status, resp)
}

// Estimate is [engine.Estimate].
func (Reference) Estimate(_ context.Context, s *engine.Session, d engine.Decision) (int, error) {
	return engine.Estimate(s.Messages, d), nil
}

// Compact is [engine.Compact].
func (Reference) Compact(_ context.Context, s *engine.Session, d engine.Decision, threshold int) (engine.CompactResult, error) {
	return engine.Compact(s, d, engine.CompactOptions{Threshold: threshold}), nil
}

// Branch is [engine.Branch].
func (Reference) Branch(_ context.Context, s *engine.Session, id string) (*engine.Session, error) {
	return engine.Branch(s, id), nil
}

// Reload stores a copy of s in a SQLite file (package engine/store),
// closes it, opens it again and loads the session.
func (r Reference) Reload(ctx context.Context, s *engine.Session) (*engine.Session, error) {
	dir, open := r.Dir, store.Open
	if dir == "" {
		// A store only this call uses and then removes needs no
		// durability: it is never synced to disk.
		tmp, err := os.MkdirTemp("", "replaycheck-store-*")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dir, open = tmp, store.OpenScratch
	}
	path := filepath.Join(dir, "sessions.db")
	st, err := open(path)
	if err != nil {
		return nil, err
	}
	s = s.Clone()
	if s.ID == "" {
		s.ID = "session"
	}
	if err := st.Save(ctx, s); err != nil {
		st.Close()
		return nil, err
	}
	if err := st.Close(); err != nil {
		return nil, err
	}
	if st, err = open(path); err != nil {
		return nil, err
	}
	defer st.Close()
	return st.Load(ctx, s.ID)
}
