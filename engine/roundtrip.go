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

// Turn shapes the session for the route, sends it, and on success captures
// the assistant answer into the session. On a refusal the dialect may learn
// a verdict (recorded in the session's model config); the request is then
// reshaped in flight and retried once for that verdict (SPEC §6). A
// refusal that teaches nothing new is final, so no field is ever retried
// twice and the turn never loops. Stored history is never edited, only
// appended to.
func (e *Engine) Turn(ctx context.Context, s *Session, r Route, dia Dialect, req Request, send Sender) (TurnResult, error) {
	var res TurnResult
	if b, ok := dia.(RouteBinder); ok {
		dia = b.ForRoute(r)
	}
	d := e.decider().Decide(r, s.Config.RejectedFor(r.Key()))
	body, err := dia.Shape(s, d, req)
	if err != nil {
		return res, err
	}
	path := dia.Path(r, req.Stream)
	for attempt := 0; ; attempt++ {
		ex := Exchange{Path: path, Body: body, Carried: dia.Carried(body)}
		e.logger().Info("request", "route", routeLabel(r), "attempt", attempt+1, "carriers", strings.Join(ex.Carried, ","))
		ex.Status, ex.Response, err = send(ctx, path, body)
		res.Exchanges = append(res.Exchanges, ex)
		if err != nil {
			return res, fmt.Errorf("%s: send: %w", routeLabel(r), err)
		}
		if ex.Status >= 200 && ex.Status < 300 {
			var msg Message
			if req.Stream {
				msg, err = dia.CaptureStream(bytes.NewReader(ex.Response))
			} else {
				msg, err = dia.Capture(ex.Response)
			}
			if err != nil {
				return res, fmt.Errorf("%s: capture: %w", routeLabel(r), err)
			}
			s.Messages = append(s.Messages, msg)
			res.Message = msg
			return res, nil
		}
		refusal := &RefusalError{Status: ex.Status, Body: ex.Response}
		if attempt+1 >= maxAttempts {
			return res, refusal
		}
		verdict, ok := dia.Learn(s, e.Table, d, body, ex.Status, ex.Response)
		if !ok {
			return res, refusal
		}
		res.Verdicts = append(res.Verdicts, verdict)
		e.logger().Warn("verdict", "route", routeLabel(r), "verdict", verdict)
		d = e.decider().Decide(r, s.Config.RejectedFor(r.Key()))
		if body, err = dia.Reshape(body, s, d, req); err != nil {
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
