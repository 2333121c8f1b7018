package protocol

import (
	"context"
	"errors"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/scenario"
)

// steps asks the client's implementation every step of a scenario.
type steps struct{ c *Client }

var _ scenario.Implementation = steps{}

// do runs one request under the client's lock.
func (s steps) do(ctx context.Context, req *Request, result any, check func() error) error {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	return s.c.call(ctx, req, result, check)
}

// Decide asks decide.
func (s steps) Decide(ctx context.Context, r engine.Route, rejected engine.CarrierSet) (engine.Decision, error) {
	route := routeOf(r)
	var w Decision
	var d engine.Decision
	req := &Request{Cmd: CmdDecide, Route: route, Rejected: rejected.Names()}
	err := s.do(ctx, req, &w, func() error {
		rt, err := route.route()
		if err != nil {
			return err
		}
		d, err = w.decision(rt, "result")
		return err
	})
	return d, err
}

// Shape asks shape.
func (s steps) Shape(ctx context.Context, sess *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	raw, err := encodeSession(sess)
	if err != nil {
		return nil, err
	}
	return s.body(ctx, &Request{Cmd: CmdShape, Route: routeOf(d.Route), Decision: decisionOf(d), Session: raw, Options: optionsOf(req)})
}

// Reshape asks reshape.
func (s steps) Reshape(ctx context.Context, body []byte, sess *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	raw, err := encodeSession(sess)
	if err != nil {
		return nil, err
	}
	return s.body(ctx, &Request{Cmd: CmdReshape, Route: routeOf(d.Route), Decision: decisionOf(d), Session: raw, Options: optionsOf(req), Body: body})
}

// body asks a step whose result is a request body.
func (s steps) body(ctx context.Context, req *Request) ([]byte, error) {
	var res BodyResult
	err := s.do(ctx, req, &res, func() error {
		if res.Body[0] != '{' {
			return errors.New("result.body: want the request body, a JSON object, got " + kindOf(res.Body))
		}
		return nil
	})
	return res.Body, err
}

// Capture asks capture.
func (s steps) Capture(ctx context.Context, r engine.Route, resp []byte, stream bool) (engine.Message, error) {
	req := &Request{Cmd: CmdCapture, Route: routeOf(r), Stream: stream}
	req.setResponse(resp)
	var res MessageResult
	var m engine.Message
	err := s.do(ctx, req, &res, func() error {
		var err error
		m, err = decodeMessage(res.Message, "result.message")
		return err
	})
	return m, err
}

// Learn asks learn; a learnt verdict replaces the session's model config
// with the one the implementation answered.
func (s steps) Learn(ctx context.Context, sess *engine.Session, d engine.Decision, sent []byte, status int, resp []byte) (string, bool, error) {
	raw, err := encodeSession(sess)
	if err != nil {
		return "", false, err
	}
	req := &Request{Cmd: CmdLearn, Route: routeOf(d.Route), Decision: decisionOf(d), Session: raw, Body: sent, Status: status}
	req.setResponse(resp)
	var res LearnResult
	err = s.do(ctx, req, &res, func() error {
		if !res.Learnt {
			return nil
		}
		switch {
		case res.Verdict == "":
			return errors.New("result.verdict: missing (a learnt verdict says what was learnt)")
		case res.ModelConfig == nil:
			return errors.New("result.model_config: missing (a learnt verdict is recorded in the model config)")
		}
		return checkConfig(*res.ModelConfig, "result.model_config")
	})
	if err != nil || !res.Learnt {
		return "", false, err
	}
	sess.Config = *res.ModelConfig
	return res.Verdict, true, nil
}

// Estimate asks estimate.
func (s steps) Estimate(ctx context.Context, sess *engine.Session, d engine.Decision) (int, error) {
	raw, err := encodeSession(sess)
	if err != nil {
		return 0, err
	}
	var res EstimateResult
	err = s.do(ctx, &Request{Cmd: CmdEstimate, Route: routeOf(d.Route), Decision: decisionOf(d), Session: raw}, &res, func() error {
		if res.Tokens < 0 {
			return errors.New("result.tokens: negative")
		}
		return nil
	})
	return res.Tokens, err
}

// Compact asks compact.
func (s steps) Compact(ctx context.Context, sess *engine.Session, d engine.Decision, threshold int) (engine.CompactResult, error) {
	raw, err := encodeSession(sess)
	if err != nil {
		return engine.CompactResult{}, err
	}
	var res CompactResult
	var out engine.CompactResult
	req := &Request{Cmd: CmdCompact, Route: routeOf(d.Route), Decision: decisionOf(d), Session: raw, Threshold: &threshold}
	err = s.do(ctx, req, &res, func() error {
		compacted, err := decodeSession(res.Session, "result.session")
		out = engine.CompactResult{Session: compacted, Dropped: res.Dropped, Before: res.Before, After: res.After, CannotShrink: res.CannotShrink}
		return err
	})
	return out, err
}

// Branch asks branch.
func (s steps) Branch(ctx context.Context, sess *engine.Session, id string) (*engine.Session, error) {
	return s.session(ctx, &Request{Cmd: CmdBranch, BranchID: id}, sess)
}

// Reload asks reload.
func (s steps) Reload(ctx context.Context, sess *engine.Session) (*engine.Session, error) {
	return s.session(ctx, &Request{Cmd: CmdReload}, sess)
}

// session asks a step that takes a session and answers one.
func (s steps) session(ctx context.Context, req *Request, sess *engine.Session) (*engine.Session, error) {
	raw, err := encodeSession(sess)
	if err != nil {
		return nil, err
	}
	req.Session = raw
	var res SessionResult
	var out *engine.Session
	err = s.do(ctx, req, &res, func() error {
		var err error
		out, err = decodeSession(res.Session, "result.session")
		return err
	})
	return out, err
}
