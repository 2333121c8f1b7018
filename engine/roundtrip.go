package engine

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
)

// A Sender delivers one request body to the route and returns the
// provider's status and body. The engine never does HTTP itself.
type Sender func(ctx context.Context, path string, body []byte) (status int, resp []byte, err error)

// An Exchange is one request of a turn and the provider's answer.
type Exchange struct {
	Path     string
	Body     []byte
	Carried  []string
	Status   int
	Response []byte
}

// A TurnResult is the outcome of [Engine.Turn].
type TurnResult struct {
	// Message is the captured assistant message (appended to the session).
	Message Message
	// Exchanges are the requests sent: one, or two after a learnt refusal.
	Exchanges []Exchange
	// Verdicts describes each refusal learnt during the turn.
	Verdicts []string
}

// A Decider makes the route decision; [*Table] is the decider of record,
// and the harness substitutes others to record wire variants.
type Decider interface {
	Decide(r Route, rejected CarrierSet) Decision
}

// An Engine runs turns of a session against routes with a route table.
type Engine struct {
	Table *Table
	// Decider overrides Table for the route decision when set.
	Decider Decider
	// Log receives one record per request (the carriers it carried) and one
	// per learnt verdict; nil discards them.
	Log *slog.Logger
}

// maxAttempts bounds the requests of one turn: each retry needs a newly
// learnt verdict, and there are only three carriers to learn.
const maxAttempts = 4

// TurnSteps are the steps of one turn that a replay implementation
// answers: the route decision, shaping, reshaping after a refusal, capture
// and learning from a refusal. [DialectSteps] answers them with the
// reference dialects in process; an implementation out of process answers
// them over the engine protocol. Every step may fail (a process can crash
// or time out), and a failed step ends the turn with its error.
type TurnSteps interface {
	// Decide makes the route decision given the carriers recorded as
	// refused for the route.
	Decide(ctx context.Context, r Route, rejected CarrierSet) (Decision, error)
	// Shape builds the request body for the session on the decided route.
	Shape(ctx context.Context, s *Session, d Decision, req Request) ([]byte, error)
	// Reshape reconciles a refused body with a new decision (SPEC §3.2).
	Reshape(ctx context.Context, body []byte, s *Session, d Decision, req Request) ([]byte, error)
	// Capture turns a response, whole or streamed, into a stored message.
	Capture(ctx context.Context, r Route, resp []byte, stream bool) (Message, error)
	// Learn inspects a refusal of the sent body; when it learns a verdict a
	// retry can act on, it records it in s.Config and describes it.
	Learn(ctx context.Context, s *Session, d Decision, sent []byte, status int, resp []byte) (verdict string, ok bool, err error)
}

// A Wire tells what the harness observes of a request: the path it goes
// to and the reasoning carriers it carries. Every [Dialect] is one.
type Wire interface {
	Path(r Route, stream bool) string
	Carried(body []byte) []string
}

// DialectSteps answers [TurnSteps] in process with one reference dialect
// and a decider (a route table, or a wire variant).
type DialectSteps struct {
	Dialect Dialect
	// Table is the route table the dialect learns with.
	Table   *Table
	Decider Decider
}

// Decide applies the decider.
func (d DialectSteps) Decide(_ context.Context, r Route, rejected CarrierSet) (Decision, error) {
	return d.Decider.Decide(r, rejected), nil
}

// Shape calls the dialect's Shape.
func (d DialectSteps) Shape(_ context.Context, s *Session, dec Decision, req Request) ([]byte, error) {
	return d.Dialect.Shape(s, dec, req)
}

// Reshape calls the dialect's Reshape.
func (d DialectSteps) Reshape(_ context.Context, body []byte, s *Session, dec Decision, req Request) ([]byte, error) {
	return d.Dialect.Reshape(body, s, dec, req)
}

// Capture calls the dialect's Capture or CaptureStream.
func (d DialectSteps) Capture(_ context.Context, r Route, resp []byte, stream bool) (Message, error) {
	dia := d.Dialect
	if b, ok := dia.(RouteBinder); ok {
		dia = b.ForRoute(r) // the captured turn records the route that issued it
	}
	if stream {
		return dia.CaptureStream(bytes.NewReader(resp))
	}
	return dia.Capture(resp)
}

// Learn calls the dialect's Learn with the table.
func (d DialectSteps) Learn(_ context.Context, s *Session, dec Decision, sent []byte, status int, resp []byte) (string, bool, error) {
	verdict, ok := d.Dialect.Learn(s, d.Table, dec, sent, status, resp)
	return verdict, ok, nil
}

// Turn shapes the session for the route, sends it, and on success captures
// the assistant answer into the session. On a refusal the dialect may learn
// a verdict (recorded in the session's model config); the request is then
// reshaped in flight and retried once for that verdict (SPEC §6). A
// refusal that teaches nothing new is final, so no field is ever retried
// twice and the turn never loops. Stored history is never edited, only
// appended to.
func (e *Engine) Turn(ctx context.Context, s *Session, r Route, dia Dialect, req Request, send Sender) (TurnResult, error) {
	return RunTurn(ctx, DialectSteps{Dialect: dia, Table: e.Table, Decider: e.decider()}, dia, s, r, req, send, e.logger())
}

// RunTurn is the turn loop of [Engine.Turn] over any implementation's
// steps: decide, shape, send; on success capture and append; on a refusal
// learn, decide again, reshape and resend, once per newly learnt verdict
// and at most [maxAttempts] requests in all. The harness owns the loop, so
// an implementation checked out of process answers single steps and can
// never loop. wire names each request's path and carriers; log receives
// one record per request and per verdict.
func RunTurn(ctx context.Context, steps TurnSteps, wire Wire, s *Session, r Route, req Request, send Sender, log *slog.Logger) (TurnResult, error) {
	var res TurnResult
	d, err := steps.Decide(ctx, r, s.Config.RejectedFor(r.Key()))
	if err != nil {
		return res, err
	}
	body, err := steps.Shape(ctx, s, d, req)
	if err != nil {
		return res, err
	}
	path := wire.Path(r, req.Stream)
	for attempt := 0; ; attempt++ {
		ex := Exchange{Path: path, Body: body, Carried: wire.Carried(body)}
		log.Info("request", "route", routeLabel(r), "attempt", attempt+1, "carriers", strings.Join(ex.Carried, ","))
		ex.Status, ex.Response, err = send(ctx, path, body)
		res.Exchanges = append(res.Exchanges, ex)
		if err != nil {
			return res, fmt.Errorf("%s: send: %w", routeLabel(r), err)
		}
		if ex.Status >= 200 && ex.Status < 300 {
			msg, err := steps.Capture(ctx, r, ex.Response, req.Stream)
			if err != nil {
				return res, &CaptureError{Route: routeLabel(r), Err: err}
			}
			s.Messages = append(s.Messages, msg)
			res.Message = msg
			return res, nil
		}
		refusal := &RefusalError{Status: ex.Status, Body: ex.Response}
		if attempt+1 >= maxAttempts {
			return res, refusal
		}
		verdict, ok, err := steps.Learn(ctx, s, d, body, ex.Status, ex.Response)
		if err != nil {
			return res, err
		}
		if !ok {
			return res, refusal
		}
		res.Verdicts = append(res.Verdicts, verdict)
		log.Warn("verdict", "route", routeLabel(r), "verdict", verdict)
		if d, err = steps.Decide(ctx, r, s.Config.RejectedFor(r.Key())); err != nil {
			return res, err
		}
		if body, err = steps.Reshape(ctx, body, s, d, req); err != nil {
			return res, err
		}
	}
}

func (e *Engine) decider() Decider {
	if e.Decider != nil {
		return e.Decider
	}
	return e.Table
}

func (e *Engine) logger() *slog.Logger {
	if e.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return e.Log
}

func routeLabel(r Route) string {
	return string(r.APIMode) + " " + r.Provider + " " + Hostname(r.BaseURL) + " " + r.Model
}
