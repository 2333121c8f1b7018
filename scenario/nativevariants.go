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

// nativeVariantTables returns, for an Anthropic or Bedrock Converse route,
// a copy of t for every other native decision a route table could give
// the route: on Anthropic routes each replay contract with earlier turns'
// thinking replayed or not and rejections learnt or not, on Converse
// routes each replay contract with thinking requested or not. Recording
// every scenario under each (see [RecordWith]) lets an edit of
// anthropic.routes, anthropic.prior_thinking or bedrock_converse be judged
// from the provider's recorded answers in the multi-turn scenarios
// (compaction, resume, branch, fallback) too. Both also get the route's
// own decision with the other thinking request (adaptive for a model the
// table gives a budget, a budget for one it asks for adaptive thinking:
// [adaptiveVariant]), so an edit of anthropic.adaptive_thinking is judged
// too. Other api modes get none.
func nativeVariantTables(t *engine.Table, route engine.Route) []*engine.Table {
	var out []*engine.Table
	switch route.APIMode {
	case engine.ModeAnthropic:
		own := t.Dialects.Anthropic.Decide(route.BaseURL, route.Model)
		for _, r := range replays {
			for _, prior := range []bool{true, false} {
				for _, learn := range []bool{own.LearnRejections, !own.LearnRejections} {
					if r == engine.ReplayStripped && (!prior || learn != own.LearnRejections) {
						continue // stripped replays no thinking: prior and learning are moot
					}
					if r == own.Replay && (prior == own.PriorThinking || r == engine.ReplayStripped) && learn == own.LearnRejections {
						continue
					}
					out = append(out, anthropicVariant(t, r, prior, learn))
				}
			}
		}
		if alt := adaptiveVariant(t, route.Model); alt != nil {
			out = append(out, alt)
		}
	case engine.ModeBedrockConverse:
		own := t.Dialects.Converse.For(route.Model)
		if alt := adaptiveVariant(t, route.Model); own.RequestThinking && alt != nil {
			out = append(out, alt)
		}
		for _, r := range replays {
			for _, thinking := range []bool{own.RequestThinking, !own.RequestThinking} {
				if r == own.Replay && thinking == own.RequestThinking {
					continue
				}
				alt := *t
				alt.Dialects.Converse.Models = append([]engine.ConverseModel{{
					ID: "variant-" + string(r), Models: []string{strings.ToLower(strings.TrimSpace(route.Model))}, Replay: r, RequestThinking: thinking,
				}}, t.Dialects.Converse.Models...)
				out = append(out, &alt)
			}
		}
	}
	return out
}

// anthropicVariant is a copy of t whose first route class matches every
// route with replay contract r, earlier turns' thinking replayed when
// prior (no model keeps it otherwise) and rejections learnt when learn.
func anthropicVariant(t *engine.Table, r engine.ReasoningReplay, prior, learn bool) *engine.Table {
	alt := *t
	rule := engine.PriorAlways
	if !prior {
		rule = engine.PriorCapability
		// A capability table in which no Claude generation keeps it.
		alt.Dialects.Anthropic.PriorThinking = engine.PriorThinking{NeverGenerations: []string{""}}
	}
	alt.Dialects.Anthropic.Routes = append([]engine.AnthropicRoute{{
		ID: "variant-" + string(r), Replay: r, PriorThinking: rule, LearnRejections: learn,
	}}, t.Dialects.Anthropic.Routes...)
	return &alt
}

// adaptiveVariant is a copy of t that asks the model for the other
// thinking configuration: no adaptive family when the table makes the
// model adaptive, else every family either table names, from every
// version. It is nil when the model's request does not change (an id
// whose Claude family and version do not parse).
func adaptiveVariant(t *engine.Table, model string) *engine.Table {
	a := t.Dialects.Anthropic
	alt := *t
	if a.AdaptiveThinking.Only(model) {
		alt.Dialects.Anthropic.AdaptiveThinking = engine.AdaptiveThinking{}
		return &alt
	}
	var every engine.AdaptiveThinking
	for _, f := range a.PriorThinking.Families {
		every.Families = append(every.Families, engine.AdaptiveFamily{Name: f.Name})
	}
	for _, f := range a.AdaptiveThinking.Families {
		every.Families = append(every.Families, engine.AdaptiveFamily{Name: f.Name})
	}
	if !every.Only(model) {
		return nil
	}
	alt.Dialects.Anthropic.AdaptiveThinking = every
	return &alt
}
