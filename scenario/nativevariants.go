package scenario

import (
	"bytes"
	"context"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/dialects"
)

// replays are the native replay contracts a route table can give a route.
var replays = []engine.ReasoningReplay{engine.ReplaySigned, engine.ReplayUnsigned, engine.ReplayStripped}

// recordNativeReplays records, on an Anthropic or Bedrock Converse route,
// the provider's answer to the replayed turn of before under every replay
// contract the table could give the route (signed, unsigned, stripped),
// besides the one it gives. The cassette then shows what the endpoint does
// with its reasoning replayed with a signature, without one and not at
// all, so an edit of anthropic.routes or bedrock_converse is judged from
// the recorded answer rather than left unverified. Requests equal to the
// route's own are not sent again.
func (c *Conv) recordNativeReplays(ctx context.Context, before *engine.Session, own []byte) error {
	mode := c.Target.Route.APIMode
	if mode != engine.ModeAnthropic && mode != engine.ModeBedrockConverse {
		return nil
	}
	ref, ok := c.Impl.(Reference)
	if !ok || ref.Table == nil {
		return nil
	}
	d, err := c.DecisionFor(ctx, before)
	if err != nil {
		return err
	}
	table := ref.Table
	sent := [][]byte{own}
	for _, r := range replays {
		alt := replayTable(table, c.Target.Route, r)
		dia, err := dialects.For(mode, alt)
		if err != nil {
			return err
		}
		body, err := dia.Shape(before, d, c.Request(false))
		if err != nil {
			return err
		}
		if containsBody(sent, body) {
			continue
		}
		sent = append(sent, body)
		if _, _, err := c.send(ctx, c.Dialect.Path(c.Target.Route, false), body); err != nil {
			return err
		}
	}
	return nil
}

// replayTable is a copy of t whose policy gives the route replay contract
// r: a first Anthropic route class matching every route (earlier turns'
// thinking always replayed unless stripped), or a first Converse row for
// the route's model (thinking requested as the table requests it).
func replayTable(t *engine.Table, route engine.Route, r engine.ReasoningReplay) *engine.Table {
	alt := *t
	switch route.APIMode {
	case engine.ModeAnthropic:
		own := t.Dialects.Anthropic.Decide(route.BaseURL, route.Model)
		alt.Dialects.Anthropic.Routes = append([]engine.AnthropicRoute{{
			ID: "variant-" + string(r), Replay: r, PriorThinking: engine.PriorAlways, LearnRejections: own.LearnRejections,
		}}, t.Dialects.Anthropic.Routes...)
	case engine.ModeBedrockConverse:
		own := t.Dialects.Converse.For(route.Model)
		alt.Dialects.Converse.Models = append([]engine.ConverseModel{{
			ID: "variant-" + string(r), Models: []string{strings.ToLower(strings.TrimSpace(route.Model))}, Replay: r, RequestThinking: own.RequestThinking,
		}}, t.Dialects.Converse.Models...)
	}
	return &alt
}

func containsBody(bodies [][]byte, b []byte) bool {
	for _, x := range bodies {
		if bytes.Equal(x, b) {
			return true
		}
	}
	return false
}
