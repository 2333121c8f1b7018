package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"sort"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/suites/harness"
	"github.com/tidwall/gjson"
)

// A Conv is one scenario run: a session driven through an implementation
// against one target, over an HTTP client whose transport is a cassette
// replay or a recording.
type Conv struct {
	Target matrix.Target
	// Impl is the implementation under check; it answers every engine step.
	Impl Implementation
	// Dialect is the reference dialect of the target's api mode: the
	// harness's own eyes on the wire (request paths, the carriers a body
	// carries) and the shaper of the wire variants it asks the cassette
	// about.
	Dialect engine.Dialect
	Client  *http.Client
	Session *engine.Session
	// Replay is the cassette being replayed, nil while recording.
	Replay *harness.Replay
	// Profile is the target's provider profile, nil when unknown (a
	// recording without one): the fallback scenario words the provider's
	// drift from it.
	Profile *providers.Profile
	// Table is the harness's route table (the run's --matrix), whatever
	// the implementation under check: advice looks the provider's recorded
	// answers up under variants of it, so an engine over the protocol is
	// advised as the reference engine in process is. Nil gives no advice.
	Table *engine.Table

	// restate, when set, rewrites every decision the implementation makes,
	// given the carriers recorded as refused (the fallback script's stale
	// row).
	restate func(d engine.Decision, rejected engine.CarrierSet) engine.Decision
	// variant marks a run of a script under a variant of the route, for
	// advice: it asks for no advice and records only its own conversation.
	variant bool
	// textOnly offers the model no tools, so it answers in text.
	textOnly bool
	notes    []string
	advisory string
	// Exchanges are every request the conversation sent, in order.
	Exchanges []engine.Exchange
	// Mutations are the signed-roundtrip script's altered replays, each
	// with the first request it sent.
	Mutations []Mutation
}

// A Mutation is one altered replay of a turn's opaque reasoning: its
// values tampered ("tampered"), left out ("missing") or replaced by
// another provider's ("foreign"), and the first request that replay sent,
// with the provider's answer.
type Mutation struct {
	Name     string
	Exchange engine.Exchange
}

// lookupTool is the one tool every scenario offers the model.
var lookupTool = engine.Tool{
	Name:        "lookup",
	Description: "Look up a fact in the project notes.",
	Parameters:  json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`),
}

// discard is the log of scenario turns.
var discard = slog.New(slog.DiscardHandler)

// restated is an implementation whose decisions the conversation rewrites.
type restated struct {
	Implementation
	restate func(d engine.Decision, rejected engine.CarrierSet) engine.Decision
}

// Decide asks the implementation, then rewrites its decision.
func (r restated) Decide(ctx context.Context, rt engine.Route, rejected engine.CarrierSet) (engine.Decision, error) {
	d, err := r.Implementation.Decide(ctx, rt, rejected)
	if err != nil {
		return d, err
	}
	return r.restate(d, rejected), nil
}

// impl is the implementation with the conversation's restatement applied.
func (c *Conv) impl() Implementation {
	if c.restate == nil {
		return c.Impl
	}
	return restated{c.Impl, c.restate}
}

// DecisionFor is the route decision for a session as it stands.
func (c *Conv) DecisionFor(ctx context.Context, s *engine.Session) (engine.Decision, error) {
	return c.impl().Decide(ctx, c.Target.Route, s.Config.RejectedFor(c.Target.Route.Key()))
}

// Decision is the route decision for the conversation's session.
func (c *Conv) Decision(ctx context.Context) (engine.Decision, error) {
	return c.DecisionFor(ctx, c.Session)
}

// Request is the request options of every scenario turn.
func (c *Conv) Request(stream bool) engine.Request {
	if c.textOnly {
		return engine.Request{Stream: stream}
	}
	return engine.Request{Tools: []engine.Tool{lookupTool}, Stream: stream}
}

// User appends a user message.
func (c *Conv) User(text string) {
	c.Session.Messages = append(c.Session.Messages, engine.Message{Role: "user", Content: json.RawMessage(engine.AppendQuoted(nil, text))})
}

// ToolResult answers the first tool call of the last assistant message.
func (c *Conv) ToolResult(text string) error {
	last := c.Session.Messages[len(c.Session.Messages)-1]
	if last.Role != "assistant" || len(last.ToolCalls) == 0 {
		return fail("the conversation", "an assistant tool call to answer", "a "+last.Role+" message without tool calls")
	}
	c.Session.Messages = append(c.Session.Messages, engine.Message{
		Role: "tool", ToolCallID: last.ToolCalls[0].ID, Name: last.ToolCalls[0].Function.Name,
		Content: json.RawMessage(engine.AppendQuoted(nil, text)),
	})
	return nil
}

// Turn runs one turn on the session.
func (c *Conv) Turn(ctx context.Context, stream bool) (engine.TurnResult, error) {
	return c.TurnOn(ctx, c.Session, stream)
}

// TurnOn runs one turn on another session of the same target: the
// harness's turn loop over the implementation's steps.
func (c *Conv) TurnOn(ctx context.Context, s *engine.Session, stream bool) (engine.TurnResult, error) {
	res, err := engine.RunTurn(ctx, c.impl(), c.Dialect, s, c.Target.Route, c.Request(stream), c.send, discard)
	c.Exchanges = append(c.Exchanges, res.Exchanges...)
	return res, err
}

// Shape returns the body the implementation would send for s now.
func (c *Conv) Shape(ctx context.Context, s *engine.Session, stream bool) ([]byte, error) {
	d, err := c.DecisionFor(ctx, s)
	if err != nil {
		return nil, err
	}
	return c.impl().Shape(ctx, s, d, c.Request(stream))
}

// send posts a body to the target's base URL + path.
func (c *Conv) send(ctx context.Context, path string, body []byte) (int, []byte, error) {
	url := strings.TrimSuffix(c.Target.Route.BaseURL, "/") + path
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// Note adds a line to the cell's detail.
func (c *Conv) Note(format string, args ...any) {
	c.notes = append(c.notes, fmt.Sprintf(format, args...))
}

// Advise marks the cell advisory: accepted, but the table sends less than
// the provider is recorded to accept.
func (c *Conv) Advise(format string, args ...any) { c.advisory = fmt.Sprintf(format, args...) }

// Replaying reports whether the conversation runs against a cassette.
func (c *Conv) Replaying() bool { return c.Replay != nil }

var (
	memoInReasoning = regexp.MustCompile(`\[memo:([0-9a-f]{8})\]`)
	memoInAnswer    = regexp.MustCompile(`memo:([0-9a-f]{8})`)
)

// memos returns the sorted, unique memo ids found in s by re.
func memos(re *regexp.Regexp, s string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	sort.Strings(out)
	return out
}

// answerText returns the visible text of a captured assistant message.
func answerText(m engine.Message) string {
	v := gjson.ParseBytes(m.Content)
	if v.Type == gjson.String {
		return v.Str
	}
	return string(m.Content)
}

// reasoningMemos returns the memo ids in a stored assistant message's
// reasoning (any carrier, native blocks included).
func reasoningMemos(m engine.Message) []string {
	var b strings.Builder
	if m.ReasoningContent != nil {
		b.WriteString(*m.ReasoningContent)
	}
	if m.Reasoning != nil {
		b.WriteString(*m.Reasoning)
	}
	for _, it := range m.ReasoningDetails {
		b.Write(it)
	}
	if m.Native != nil {
		for _, bl := range m.Native.Blocks {
			b.Write(bl)
		}
	}
	return memos(memoInReasoning, b.String())
}

// accepted checks that a turn's first request was accepted as sent.
func accepted(what string, res engine.TurnResult, err error) error {
	if err != nil {
		return err
	}
	if len(res.Exchanges) != 1 {
		first := res.Exchanges[0]
		return &Failure{What: what, Expected: "the first request accepted", Actual: fmt.Sprintf("refused %d: %s (the engine recovered on retry)", first.Status, first.Response)}
	}
	return nil
}

// AnswerMemos returns the earlier conclusions an answer states (the
// simulator's memo ids), sorted.
func AnswerMemos(m engine.Message) []string { return memos(memoInAnswer, answerText(m)) }
