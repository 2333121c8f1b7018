package scenario

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// issuingHosts are the Responses services a history replayed to a target
// is commonly issued by: OpenAI's own API, an Azure OpenAI resource,
// OpenRouter and DeepSeek, one host each of the families matrix.yaml
// knows. The list is fixed, so the cassette does not depend on the table.
var issuingHosts = []string{"api.openai.com", "another-resource.openai.azure.com", "openrouter.ai", "api.deepseek.com"}

// regionalHosts are the data-residency domains of a service that issue
// items of their own: OpenAI refuses a reasoning item's encrypted content
// issued in another region ("eu" vs "us", dust-tt/dust#18119), and an EU
// data-residency project is served at eu.api.openai.com
// (https://help.openai.com/en/articles/10503543-data-residency-for-the-openai-api).
var regionalHosts = map[string][]string{"api.openai.com": {"eu.api.openai.com"}}

// foreignIssuers are the routes, other than the target's own, that a
// Responses history replayed to the target may have been issued by: every
// issuing host but the target's own, under the target's model id so that
// only the family tells them apart; the target's host with another model;
// a sibling host of the same provider (another Azure resource, another
// subdomain), unless the host has none; and the host's other regions
// ([regionalHosts]).
func foreignIssuers(own engine.RouteKey) []engine.RouteKey {
	var out []engine.RouteKey
	for _, h := range issuingHosts {
		if h != own.Host {
			out = append(out, engine.RouteKey{Provider: own.Provider, Host: h, Model: own.Model})
		}
	}
	other := "gpt-5-mini"
	if own.Model == other {
		other = "gpt-5.1"
	}
	out = append(out, engine.RouteKey{Provider: own.Provider, Host: own.Host, Model: other})
	if labels := strings.Split(own.Host, "."); len(labels) > 2 {
		sibling := "another-resource." + strings.Join(labels[1:], ".")
		if !slices.ContainsFunc(out, func(k engine.RouteKey) bool { return k.Host == sibling }) {
			out = append(out, engine.RouteKey{Provider: own.Provider, Host: sibling, Model: own.Model})
		}
	}
	for _, h := range regionalHosts[own.Host] {
		out = append(out, engine.RouteKey{Provider: own.Provider, Host: h, Model: own.Model})
	}
	return out
}

// crossFamily replays to a Responses target a tool-call turn issued
// elsewhere: the target's own captured turn, its sealed values replaced by
// another service's and its issuer set to each foreign issuer in turn. The
// route table (responses.families, and the model) decides whether the
// turn's reasoning items may go back; under the committed table none of
// these issuers may see them, so each request must be accepted as sent and
// carry none of the foreign values. Recording, each turn is also sent as
// if its issuer were the target's own, so the cassette holds the
// provider's refusal of the foreign encrypted content (and the engine's
// retry), and an edit of responses.families that lets it through is judged
// from the recorded refusal.
func crossFamily(ctx context.Context, c *Conv) error {
	i, err := nativeToolTurn(c.Session)
	if err != nil {
		return err
	}
	own := c.Target.Route.Key()
	for _, issuer := range foreignIssuers(own) {
		turn, err := mutateOpaque(c.Session.Messages[i], func(s string) (string, bool) { return foreignSignature, true })
		if err != nil {
			return err
		}
		if turn.Native == nil || len(storedOpaque(turn)) == 0 {
			c.Note("the provider's turn holds no sealed reasoning, so no history issued elsewhere can carry any")
			return nil
		}
		is := issuer
		turn.Native.Issuer = &is
		s := withTurn(c.Session, i, turn, fmt.Sprintf("-from-%s-%s", issuer.Host, issuer.Model))
		if !c.Replaying() {
			sent := s.Clone()
			selfIssued := own
			sent.Messages[i].Native.Issuer = &selfIssued
			if _, err := c.TurnOn(ctx, sent, false); err != nil && isTransportError(err) {
				return err
			}
		}
		res, err := c.TurnOn(ctx, s, false)
		what := fmt.Sprintf("a turn issued by %s (%s) replayed to %s", issuer.Host, issuer.Model, own.Host)
		if err := accepted(what, res, err); err != nil {
			return err
		}
		body := stringValues(gjson.ParseBytes(res.Exchanges[0].Body))
		if body[foreignSignature] {
			return fail(what, "no reasoning item sealed by another issuer", "its encrypted content was sent")
		}
		c.Note("a turn issued by %s (%s) went without its reasoning items", issuer.Host, issuer.Model)
	}
	return nil
}

// nativeToolTurn returns the index of a session's first native tool-call
// turn, which the next message (its tool result) answers.
func nativeToolTurn(s *engine.Session) (int, error) {
	i := slices.IndexFunc(s.Messages, func(m engine.Message) bool {
		return m.Role == "assistant" && len(m.ToolCalls) > 0 && m.Native != nil
	})
	if i < 0 || i+1 >= len(s.Messages) {
		return 0, fail("the tool-call turn", "a native turn answered by its tool result", "none")
	}
	return i, nil
}

// withTurn is a session of s's messages up to its turn i, turn in its
// place and the tool result after it; its id is s's with suffix.
func withTurn(s *engine.Session, i int, turn engine.Message, suffix string) *engine.Session {
	out := &engine.Session{ID: s.ID + suffix}
	out.Messages = append(slices.Clone(s.Messages[:i]), turn, s.Messages[i+1])
	return out
}
