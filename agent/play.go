package agent

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/replaycheck/replaycheck/sim"
)

// maxRequest caps a request body the player keeps.
const maxRequest = 64 << 20

// An Exchange is one request the agent sent and the simulator's answer.
type Exchange struct {
	// Index counts the agent's requests from 0.
	Index  int
	Method string
	// Path is the request's URL path (the query is never kept: keys ride
	// in it on some SDKs).
	Path string
	Body []byte
	// Status, ContentType and Response are the simulator's answer.
	Status      int
	ContentType string
	Response    []byte
	// Rule is the profile rule that refused the request, "" when none did.
	Rule string
	// ToolCall is the id of the tool call the answer carries, "" when it
	// calls none; Tool is the tool it calls.
	ToolCall, Tool string
	// Note says why the player could not direct the answer (a --tool the
	// request does not declare), "" when it could.
	Note string
}

// Own reports whether the simulator refused the request itself, as no
// model call it can read (no profile rule fired).
func (e Exchange) Own() bool { return e.Status >= 400 && e.Rule == "" }

// A player plays the provider to the agent: it directs the simulator's
// answers for one scenario and keeps every exchange.
type player struct {
	sim  http.Handler
	mode string
	// directive is the scenario's; the player adds the tool and its
	// arguments per request.
	directive sim.Directive
	// tool and args are --tool and --args; path fills path arguments.
	tool, args, path string

	mu  sync.Mutex
	log []Exchange
}

// ServeHTTP answers one request through the simulator under the
// scenario's directive and keeps the exchange.
func (p *player) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequest))
	if err != nil {
		http.Error(w, "replaycheck agent: request body: "+err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	d := p.directive
	ex := Exchange{Method: r.Method, Path: r.URL.EscapedPath(), Body: body}
	if tools := Declared(p.mode, body); len(tools) > 0 {
		if t, err := Pick(tools, p.tool); err != nil {
			ex.Note = err.Error()
		} else {
			d.Tool = t.Name
			d.Arguments = p.args
			if d.Arguments == "" {
				d.Arguments = Arguments(t.Schema, p.path)
			}
		}
	}
	req := r.Clone(sim.WithDirective(r.Context(), d))
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	rec := httptest.NewRecorder()
	p.sim.ServeHTTP(rec, req)
	ex.Status = rec.Code
	ex.ContentType = rec.Header().Get("Content-Type")
	ex.Response = rec.Body.Bytes()
	ex.Rule = rec.Header().Get(sim.RuleHeader)
	if ex.ToolCall = rec.Header().Get(sim.ToolCallHeader); ex.ToolCall != "" {
		ex.Tool = d.Tool
	}
	p.mu.Lock()
	ex.Index = len(p.log)
	p.log = append(p.log, ex)
	p.mu.Unlock()
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(ex.Response)
}

// exchanges returns a copy of the log.
func (p *player) exchanges() []Exchange {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Exchange(nil), p.log...)
}
