package protocol

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/scenario"
)

// A Server answers the protocol with an implementation in process: the
// connector side. `replaycheck connector` serves the reference engine
// with it.
type Server struct {
	// Hello is what hello answers.
	Hello Hello
	// Impl answers every step.
	Impl scenario.Implementation
}

// Serve reads requests from in, one per line, and writes one reply line
// per request to out, until bye or the end of in. A request it cannot
// read gets an error reply naming the JSON path; only a failure to read
// in or write out ends it with an error.
func (srv *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 1<<20)
	w := bufio.NewWriter(out)
	for {
		line, err := readLine(r, MaxRequestLine)
		if errors.Is(err, errLineTooLong) {
			return fmt.Errorf("connector: a request line longer than %d MiB", MaxRequestLine>>20)
		}
		if len(strings.TrimSpace(string(line))) > 0 {
			reply, bye := srv.answer(ctx, line)
			b, encErr := encodeReply(reply)
			if encErr != nil {
				return fmt.Errorf("connector: encode reply %d: %w", reply.ID, encErr)
			}
			if _, err := w.Write(b); err != nil {
				return fmt.Errorf("connector: %w", err)
			}
			if err := w.Flush(); err != nil {
				return fmt.Errorf("connector: %w", err)
			}
			if bye {
				return nil
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("connector: %w", err)
		}
	}
}

// needs lists, per command, the request fields it must carry.
var needs = map[string][]string{
	CmdHello:    {"protocol"},
	CmdDecide:   {"route"},
	CmdShape:    {"route", "decision", "session", "options"},
	CmdReshape:  {"route", "decision", "session", "options", "body"},
	CmdCapture:  {"route", "response"},
	CmdLearn:    {"route", "decision", "session", "body", "status", "response"},
	CmdEstimate: {"route", "decision", "session"},
	CmdCompact:  {"route", "decision", "session", "threshold"},
	CmdBranch:   {"session", "branch_id"},
	CmdReload:   {"session"},
	CmdBye:      {},
}

// has reports whether a request carries a field.
func (r *Request) has(name string) bool {
	switch name {
	case "protocol":
		return r.Protocol != 0
	case "route":
		return r.Route != nil
	case "decision":
		return r.Decision != nil
	case "session":
		return r.Session != nil
	case "options":
		return r.Options != nil
	case "body":
		return r.Body != nil
	case "status":
		return r.Status != 0
	case "response":
		return r.Response != nil || r.ResponseBase64 != nil
	case "threshold":
		return r.Threshold != nil
	case "branch_id":
		return r.BranchID != ""
	}
	return false
}

// answer answers one request line; bye reports the end of the session.
func (srv *Server) answer(ctx context.Context, line []byte) (rep Reply, bye bool) {
	var req Request
	if err := decodeStrict(line, &req, "request"); err != nil {
		var id struct {
			ID int64 `json:"id"`
		}
		_ = json.Unmarshal(line, &id)
		return errorReply(id.ID, err), false
	}
	fields, known := needs[req.Cmd]
	if !known {
		return errorReply(req.ID, fmt.Errorf("request.cmd: unknown command %q (want one of %s)", req.Cmd, strings.Join(Commands, ", "))), false
	}
	for _, f := range fields {
		if !req.has(f) {
			return errorReply(req.ID, fmt.Errorf("request.%s: missing (the %s command needs it)", f, req.Cmd)), false
		}
	}
	result, err := srv.dispatch(ctx, &req)
	var unsupported *scenario.UnsupportedError
	switch {
	case errors.As(err, &unsupported):
		return Reply{ID: req.ID, Unsupported: &Unsupported{Reason: unsupported.Reason}}, false
	case err != nil:
		return errorReply(req.ID, err), false
	}
	raw, err := encodeLine(result)
	if err != nil {
		return errorReply(req.ID, err), false
	}
	return Reply{ID: req.ID, Result: json.RawMessage(strings.TrimSuffix(string(raw), "\n"))}, req.Cmd == CmdBye
}

func errorReply(id int64, err error) Reply {
	return Reply{ID: id, Error: &StepFailure{Message: err.Error()}}
}

// dispatch runs one step with the implementation.
func (srv *Server) dispatch(ctx context.Context, req *Request) (any, error) {
	switch req.Cmd {
	case CmdHello:
		if req.Protocol != Version {
			return nil, fmt.Errorf("request.protocol: this connector speaks protocol %d, not %d", Version, req.Protocol)
		}
		return srv.Hello, nil
	case CmdBye:
		return Empty{}, nil
	}
	var r engine.Route
	if req.Route != nil {
		var err error
		if r, err = req.Route.route(); err != nil {
			return nil, fmt.Errorf("request.route.%w", err)
		}
	}
	var d engine.Decision
	if req.Decision != nil {
		var err error
		if d, err = req.Decision.decision(r, "request.decision"); err != nil {
			return nil, err
		}
	}
	var s *engine.Session
	if req.Session != nil {
		var err error
		if s, err = decodeSession(req.Session, "request.session"); err != nil {
			return nil, err
		}
	}
	switch req.Cmd {
	case CmdDecide:
		rejected, err := carrierSet(req.Rejected, "request.rejected")
		if err != nil {
			return nil, err
		}
		d, err := srv.Impl.Decide(ctx, r, rejected)
		return decisionOf(d), err
	case CmdShape:
		body, err := srv.Impl.Shape(ctx, s, d, req.Options.request())
		return BodyResult{Body: body}, err
	case CmdReshape:
		body, err := srv.Impl.Reshape(ctx, req.Body, s, d, req.Options.request())
		return BodyResult{Body: body}, err
	case CmdCapture:
		resp, err := req.response()
		if err != nil {
			return nil, fmt.Errorf("request.%w", err)
		}
		m, err := srv.Impl.Capture(ctx, r, resp, req.Stream)
		if err != nil {
			return nil, err
		}
		raw, err := m.MarshalJSON()
		return MessageResult{Message: raw}, err
	case CmdLearn:
		resp, err := req.response()
		if err != nil {
			return nil, fmt.Errorf("request.%w", err)
		}
		verdict, ok, err := srv.Impl.Learn(ctx, s, d, req.Body, req.Status, resp)
		if err != nil || !ok {
			return LearnResult{}, err
		}
		return LearnResult{Learnt: true, Verdict: verdict, ModelConfig: &s.Config}, nil
	case CmdEstimate:
		n, err := srv.Impl.Estimate(ctx, s, d)
		return EstimateResult{Tokens: n}, err
	case CmdCompact:
		res, err := srv.Impl.Compact(ctx, s, d, *req.Threshold)
		if err != nil {
			return nil, err
		}
		raw, err := encodeSession(res.Session)
		return CompactResult{Session: raw, Dropped: res.Dropped, Before: res.Before, After: res.After, CannotShrink: res.CannotShrink}, err
	case CmdBranch:
		b, err := srv.Impl.Branch(ctx, s, req.BranchID)
		if err != nil {
			return nil, err
		}
		raw, err := encodeSession(b)
		return SessionResult{Session: raw}, err
	}
	// CmdReload: needs guarantees every other command was handled above.
	loaded, err := srv.Impl.Reload(ctx, s)
	if err != nil {
		return nil, err
	}
	raw, err := encodeSession(loaded)
	return SessionResult{Session: raw}, err
}

// encodeReply writes a reply as one line, as encodeLine would. A result
// is already one line of compact JSON (answer made it with encodeLine),
// so it is spliced in as it is: encoding the reply would only compact it
// again, and a long session's body is tens of MB.
func encodeReply(rep Reply) ([]byte, error) {
	if len(rep.Result) == 0 || rep.Unsupported != nil || rep.Error != nil {
		return encodeLine(rep)
	}
	b := make([]byte, 0, len(rep.Result)+32)
	b = strconv.AppendInt(append(b, `{"id":`...), rep.ID, 10)
	b = append(append(b, `,"result":`...), rep.Result...)
	return append(b, "}\n"...), nil
}
