package scenario

import (
	"bytes"
	"context"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
)

var carriers = Scenario{
	Name:        "carriers",
	Requirement: "What the route sends on a replayed reasoning turn is accepted.",
	Applies:     always,
	Run: func(ctx context.Context, c *Conv) error {
		if !c.Replaying() {
			first := c.Session.Clone()
			first.Messages = append(first.Messages, engine.Message{Role: "user", Content: engine.AppendQuoted(nil, questions[0])})
			if err := c.recordMessagesPlatform(ctx, first); err != nil {
				return err
			}
		}
		if _, err := toolCall(ctx, c, questions[0]); err != nil {
			return err
		}
		before := c.Session.Clone()
		answer, err := c.Turn(ctx, false)
		if !c.Replaying() && len(answer.Exchanges) > 0 {
			if err := c.recordNativeReplays(ctx, before, answer.Exchanges[0].Body); err != nil {
				return err
			}
		}
		if err := accepted("the answer turn (replays the tool-call turn's reasoning)", answer, err); err != nil {
			return err
		}
		c.Note("sent %s", orNone(answer.Exchanges[0].Carried))
		if c.Replaying() {
			if err := c.adviseIfMoreRead(ctx, before, answer.Exchanges[0].Carried, answer.Message); err != nil {
				return err
			}
		}
		if err := leakStep(ctx, c); err != nil {
			return err
		}
		switch c.Target.Route.APIMode {
		case engine.ModeResponses:
			return crossFamily(ctx, c)
		case engine.ModeBedrockConverse:
			return crossModel(ctx, c)
		}
		return nil
	},
}

// adviseIfMoreRead asks the cassette whether the provider was recorded
// accepting the same request with one more carrier than the route sent,
// and reading it: its recorded answer states earlier reasoning that the
// route's own answer does not. A carrier accepted but ignored is no reason
// to send it. The decision is the implementation's, with the carriers its
// request carried (sent), so a carrier decided but left off the wire is
// lost as one never decided is; the wire variants are shaped and their
// recorded answers captured by the reference dialect, since they judge
// what reached the provider, not the implementation's shaping.
func (c *Conv) adviseIfMoreRead(ctx context.Context, before *engine.Session, sent []string, got engine.Message) error {
	d, err := c.DecisionFor(ctx, before)
	if err != nil || d.Native {
		return err
	}
	var carried engine.CarrierSet
	for _, name := range sent {
		if k, err := engine.ParseCarrier(name); err == nil {
			carried = carried.With(k)
		}
	}
	d.Carriers = d.Carriers.Intersect(carried)
	d.Pad = d.Pad && d.Carriers.Has(engine.ReasoningContent)
	base, err := c.Dialect.Shape(before, d, c.Request(false))
	if err != nil {
		return nil
	}
	seen := len(memos(memoInAnswer, answerText(got)))
	var more []string
	for _, extra := range engine.AllCarriers {
		if d.Carriers.Has(extra) {
			continue
		}
		wider := d
		wider.Carriers = d.Carriers.With(extra)
		body, err := c.Dialect.Shape(before, wider, c.Request(false))
		if err != nil || bytes.Equal(body, base) {
			continue
		}
		it, ok := c.Replay.Lookup("POST", c.path(), body)
		if !ok || it.Response.Code/100 != 2 {
			continue
		}
		if m, err := c.Dialect.Capture([]byte(it.Response.Body)); err == nil && len(memos(memoInAnswer, answerText(m))) > seen {
			more = append(more, string(extra))
		}
	}
	if len(more) > 0 {
		c.Advise("the route sends %s; the provider is recorded accepting and reading %s as well", orNone(d.Carriers.Names()), strings.Join(more, ", "))
	}
	return nil
}

func (c *Conv) path() string {
	u := c.Target.Route.BaseURL
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	p := ""
	if i := strings.Index(u, "/"); i >= 0 {
		p = strings.TrimSuffix(u[i:], "/")
	}
	return p + c.Dialect.Path(c.Target.Route, false)
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "no reasoning key"
	}
	return strings.Join(names, ", ")
}
