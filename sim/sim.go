package sim

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/replaycheck/replaycheck/providers"
)

// API modes the simulator speaks.
const (
	modeChat      = "chat"
	modeAnthropic = "anthropic"
	modeConverse  = "bedrock-converse"
	modeGemini    = "gemini"
	modeResponses = "responses"
)

// Headers on every simulator answer. Cassettes keep only Content-Type, so
// neither reaches a recording; the replay harness reads them when the
// simulator judges a request no cassette holds.
const (
	// SimulatorHeader names the profile and its version: "deepseek/v1".
	SimulatorHeader = "Replaycheck-Simulator"
	// RuleHeader names the profile rule that refused the request; an
	// error answer without it is the simulator's own (a request it cannot
	// read as a model call), not the provider's.
	RuleHeader = "Replaycheck-Rule"
)

// Options configure a Simulator.
type Options struct {
	// Seed fixes the signing key. The key is an HMAC-SHA256 key derived from
	// ("replaycheck-sim", Seed, profile name); an empty Seed draws a random
	// key per run (crypto/rand), so signatures differ between runs.
	Seed string
	// Logf, when set, receives one line per request: method, path, status
	// and the rule that fired. Headers and query strings are never logged.
	Logf func(format string, args ...any)
	// Date is the day (YYYY-MM-DD) the simulator answers as: only the
	// rules that held then apply ([providers.Rule.HoldsOn]). Empty answers
	// as today, with the rules that still hold.
	Date string
}

// A Simulator is the executable form of one provider profile: an
// http.Handler that answers model calls the way the profile says the
// provider does. It is safe for concurrent use.
type Simulator struct {
	p    *providers.Profile
	d    dialect
	g    signer
	logf func(format string, args ...any)
	date string
}

// New builds the simulator of profile p. It fails when the profile's api
// mode is not simulated or a rule's condition is one the simulator cannot
// evaluate in that dialect (the error names the rule), so a profile never
// silently loses a rule.
func New(p *providers.Profile, opts Options) (*Simulator, error) {
	if p == nil {
		return nil, errors.New("sim: no profile")
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	d, ok := dialectFor(p.APIMode)
	if !ok {
		return nil, fmt.Errorf("sim: profile %s: api mode %q is not simulated (want chat, anthropic, bedrock-converse, gemini or responses)", p.Name, p.APIMode)
	}
	for _, rule := range p.Rules {
		if err := supports(d, rule.When); err != nil {
			return nil, fmt.Errorf("sim: profile %s: rule %s: %w", p.Name, rule.ID, err)
		}
	}
	g, err := newSigner(p.Name, opts.Seed)
	if err != nil {
		return nil, fmt.Errorf("sim: profile %s: %w", p.Name, err)
	}
	return &Simulator{p: p, d: d, g: g, logf: opts.Logf, date: opts.Date}, nil
}

// Sign returns the signature this simulator issues for a reasoning text:
// the detached signature base64(HMAC-SHA256(key, profile name + "\x00" +
// text)) carried by Anthropic thinking blocks, Bedrock reasoningText and
// reasoning_details items; for gemini profiles and the thought-signature
// scheme, the self-contained thought signature that embeds the text (as a
// Gemini thoughtSignature carries the thought state).
func (s *Simulator) Sign(text string) string {
	if s.p.APIMode == modeGemini || (s.p.Signing != nil && s.p.Signing.Scheme == "thought-signature") {
		return s.g.thought(text)
	}
	return s.g.sign(text)
}

// ServeHTTP answers one request: a POST is a model call, anything else is a
// 404. A model call is checked against the profile's rules in order (the
// first that holds answers with its status and body); otherwise the
// simulator generates a 200 answer in the dialect's shape, whole or streamed.
func (s *Simulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set(SimulatorHeader, fmt.Sprintf("%s/v%d", s.p.Name, s.p.Version))
	d, directed := directiveFrom(r.Context())
	if directed {
		s = s.directed(d)
	}
	if r.Method != http.MethodPost {
		s.fail(w, r, &clientError{http.StatusNotFound, fmt.Sprintf("no route for %s %s: the simulator answers POST model calls", r.Method, r.URL.Path)})
		return
	}
	q, err := readRequest(w, r, s.p.APIMode)
	if err != nil {
		var ce *clientError
		if !errors.As(err, &ce) {
			ce = &clientError{http.StatusBadRequest, err.Error()}
		}
		s.fail(w, r, ce)
		return
	}
	if rule, h, ok := s.match(q); ok {
		s.refuse(w, q, rule, h)
		s.log("%s %s -> %d rule %s (%s)", r.Method, r.URL.Path, statusOf(rule), rule.ID, h.path)
		return
	}
	t := s.compose(q, s.d.read(s, q))
	if directed {
		d.apply(t)
	}
	if t.toolName != "" {
		w.Header().Set(ToolCallHeader, t.toolID)
	}
	s.d.reply(s, w, q, t)
	what := "answer"
	if t.toolName != "" {
		what = "tool call"
	}
	s.log("%s %s -> 200 %s", r.Method, r.URL.Path, what)
}

// fail answers a request the simulator cannot take as a model call.
func (s *Simulator) fail(w http.ResponseWriter, r *http.Request, e *clientError) {
	typ := "invalid_request_error"
	if e.status == http.StatusNotFound {
		typ = "not_found_error"
	}
	s.writeError(w, e.status, typ, e.msg)
	s.log("%s %s -> %d %s", r.Method, r.URL.Path, e.status, e.msg)
}

// writeError answers status with the simulator's own JSON error body.
func (s *Simulator) writeError(w http.ResponseWriter, status int, typ, msg string) {
	body := encode(obj{{"error", obj{{"type", typ}, {"code", status}, {"message", "sim " + s.p.Name + ": " + msg}}}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func (s *Simulator) log(format string, args ...any) {
	if s.logf != nil {
		s.logf("sim %s: "+format, append([]any{s.p.Name}, args...)...)
	}
}
