package protocol

import (
	"bufio"
	"bytes"
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
	// ValidBodies says Impl shapes only valid JSON, as the reference
	// engine does: a shaped body is then checked only for whitespace
	// between its tokens, its strings skipped a search for a quote at a
	// time, before it is sent as it is. Without it a body is validated
	// too, and one that is no JSON is an error reply.
	ValidBodies bool
}

// Serve reads requests from in, one per line, and writes one reply line
// per request to out, until bye or the end of in. A request it cannot
// read gets an error reply naming the JSON path; only a failure to read
// in or write out ends it with an error.
func (srv *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	r := lineReader{r: in}
	w := bufio.NewWriter(out)
	for {
		line, err := r.next(MaxRequestLine)
		if errors.Is(err, errLineTooLong) {
			return fmt.Errorf("connector: a request line longer than %d MiB", MaxRequestLine>>20)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			reply, result, bye := srv.answer(ctx, line)
			if err := writeReply(w, reply, result); err != nil {
				return err
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

// answer answers one request line: the reply, with the step's result in
// pieces (see encodeResult) when it has one, the reply's Result being
// left empty; bye reports the end of the session.
func (srv *Server) answer(ctx context.Context, line []byte) (rep Reply, result [][]byte, bye bool) {
	var req Request
	sess, err := decodeRequest(line, &req)
	if err != nil {
		var id struct {
			ID int64 `json:"id"`
		}
		_ = json.Unmarshal(line, &id)
		return errorReply(id.ID, err), nil, false
	}
	fields, known := needs[req.Cmd]
	if !known {
		return errorReply(req.ID, fmt.Errorf("request.cmd: unknown command %q (want one of %s)", req.Cmd, strings.Join(Commands, ", "))), nil, false
	}
	for _, f := range fields {
		if !req.has(f) {
			return errorReply(req.ID, fmt.Errorf("request.%s: missing (the %s command needs it)", f, req.Cmd)), nil, false
		}
	}
	res, err := srv.dispatch(ctx, &req, sess)
	var unsupported *scenario.UnsupportedError
	switch {
	case errors.As(err, &unsupported):
		return Reply{ID: req.ID, Unsupported: &Unsupported{Reason: unsupported.Reason}}, nil, false
	case err != nil:
		return errorReply(req.ID, err), nil, false
	}
	result, err = encodeResult(res, srv.ValidBodies)
	if err != nil {
		return errorReply(req.ID, err), nil, false
	}
	return Reply{ID: req.ID}, result, req.Cmd == CmdBye
}

// decodeRequest reads a request line strictly. A session object in it is
// parsed where it lies, in the same pass, and returned: dispatch takes it
// instead of reading the session's bytes a second time. A session the
// one-pass parser leaves (nil) is read by dispatch, as before. A parsed
// session comes with the JSON forms of its long reasoning strings, which
// share line's bytes, for shaping.
func decodeRequest(line []byte, req *Request) (*parsedSession, error) {
	var parsed *parsedSession
	err := decodeStrictWith(line, req, "request", func(key string, i int) (int, bool) {
		if key != "session" || line[i] != '{' {
			return 0, false
		}
		q := new(engine.QuotedStrings)
		s, n, ok := engine.ParseSessionPrefix(line[i:], q)
		if !ok {
			return 0, false
		}
		parsed = &parsedSession{session: s, quoted: q}
		return i + n, true
	})
	if err != nil || req.Session == nil {
		return nil, err
	}
	return parsed, nil
}

// parsedSession is a request's session, read where it lies in the
// request line, with the forms of its reasoning strings there.
type parsedSession struct {
	session *engine.Session
	quoted  *engine.QuotedStrings
}

func errorReply(id int64, err error) Reply {
	return Reply{ID: id, Error: &StepFailure{Message: err.Error()}}
}

// dispatch runs one step with the implementation; parsed, when not nil,
// is the request's session, already read.
func (srv *Server) dispatch(ctx context.Context, req *Request, parsed *parsedSession) (any, error) {
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
	var quoted *engine.QuotedStrings
	if parsed != nil {
		s, quoted = parsed.session, parsed.quoted
	}
	switch {
	case s != nil:
		if err := checkConfig(s.Config, "request.session.model_config"); err != nil {
			return nil, err
		}
	case req.Session != nil:
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
		body, err := srv.Impl.Shape(ctx, s, d, req.Options.request(quoted))
		return BodyResult{Body: body}, err
	case CmdReshape:
		body, err := srv.Impl.Reshape(ctx, req.Body, s, d, req.Options.request(quoted))
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

// writeReply writes a reply line and flushes it: the step's result, in
// pieces, when there is one, else the reply as encodeLine writes it.
func writeReply(w *bufio.Writer, rep Reply, result [][]byte) error {
	if result == nil {
		b, err := encodeLine(rep)
		if err != nil {
			return fmt.Errorf("connector: encode reply %d: %w", rep.ID, err)
		}
		_, _ = w.Write(b)
	} else {
		_, _ = w.Write(strconv.AppendInt([]byte(`{"id":`), rep.ID, 10))
		_, _ = w.WriteString(`,"result":`)
		for _, p := range result {
			_, _ = w.Write(p)
		}
		_, _ = w.WriteString("}\n")
	}
	// A bufio.Writer keeps its first error and Flush returns it.
	if err := w.Flush(); err != nil {
		return fmt.Errorf("connector: %w", err)
	}
	return nil
}

// encodeResult writes a step's result as the pieces of one line of
// compact JSON: the bytes encodeLine writes for it, newline left out. A
// body or session that is already compact JSON (a shaped body always is,
// on the reference engine; a session in its storage form too) is one
// piece as it is: encodeLine would only check, compact and copy it again,
// and a long session's body is tens of MB. validBodies says a body is
// known to be valid JSON (see [Server.ValidBodies]); a session always is,
// encodeSession having written it.
func encodeResult(res any, validBodies bool) ([][]byte, error) {
	switch r := res.(type) {
	case BodyResult:
		if isCompact(r.Body, validBodies) {
			return [][]byte{[]byte(`{"body":`), r.Body, []byte("}")}, nil
		}
	case SessionResult:
		if isCompact(r.Session, true) {
			return [][]byte{[]byte(`{"session":`), r.Session, []byte("}")}, nil
		}
	}
	raw, err := encodeLine(res)
	return [][]byte{bytes.TrimSuffix(raw, []byte("\n"))}, err
}

// isCompact reports whether raw is one valid JSON value with no
// insignificant whitespace: what encoding/json writes a json.RawMessage
// as, byte for byte. valid says raw is known to be valid JSON, so only
// whitespace between tokens is looked for.
func isCompact(raw []byte, valid bool) bool {
	if valid {
		return len(raw) > 0 && engine.IsCompactValidJSON(raw)
	}
	return engine.IsCompactJSON(raw)
}
