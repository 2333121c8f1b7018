package scenario

import (
	"context"
	"fmt"
	"slices"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/tidwall/gjson"
)

// learnsSignatureRefusals reports whether fallback applies to an Anthropic
// Messages target through its signed thinking: the provider refuses a
// thinking signature it cannot verify, so a route that learns rejections
// (anthropic.routes learn_rejections) must fingerprint the refused blocks
// and suppress them for the session. A target of another dialect gives
// ok false and an empty reason, leaving the decision to the caller.
func learnsSignatureRefusals(t matrix.Target, p *providers.Profile) (bool, string) {
	return refusesUnverifiable(t, p, engine.ModeAnthropic, "thinking",
		"the provider refuses no thinking signature it cannot verify, so there is nothing to learn")
}

// signatureFallback is fallback for signed thinking: an earlier turn holds
// a thinking block signed elsewhere (another account, another platform —
// played by the signature of another provider). A route that replays
// earlier turns' thinking sends it and is refused; the refusal must be
// learnt (every signed block of the refused request fingerprinted into the
// session's model config), the request retried exactly once without those
// blocks, the fingerprints persisted, and after resume the first request
// must leave them out, be accepted as sent, and still carry the signatures
// issued after the refusal. A route that replays no earlier turn's
// thinking never sends the block, and the cell says so. A model its
// profile documents as keeping only the last turn's thinking must never
// be sent it: the script still runs to its end, then fails, quoting the
// refusal the replay bought.
func signatureFallback(ctx context.Context, c *Conv) error {
	if _, err := toolLoop(ctx, c, questions[0]); err != nil {
		return err
	}
	// The first turn's tool call: its signed thinking now reads as issued
	// by another account.
	call := slices.IndexFunc(c.Session.Messages, func(m engine.Message) bool { return m.Role == "assistant" && len(m.ToolCalls) > 0 })
	foreign, err := mutateOpaque(c.Session.Messages[call], func(string) (string, bool) { return foreignSignature, true })
	if err != nil {
		return err
	}
	c.Session.Messages[call] = foreign
	c.User(questions[1])
	res, err := c.Turn(ctx, false)
	if err != nil {
		return err
	}
	if len(res.Exchanges) == 1 {
		if stringValues(gjson.ParseBytes(res.Exchanges[0].Body))[foreignSignature] {
			return fail("a foreign signature replayed on an earlier turn", "a refusal, a learnt verdict and one retry", "the request was accepted with it")
		}
		c.Note("the route replays no earlier turn's thinking, so the foreign signature never reached the wire")
		return nil
	}
	// wasted is the finding, kept for the end so that the rest of the
	// script still runs (and records its evidence), when the model reads
	// no earlier turn's thinking yet the route replayed it: the API still
	// checks its signature (openclaw/openclaw#99382), so replaying it
	// bought a refusal and nothing else.
	var wasted error
	if m := c.Target.Route.Model; c.Profile.KeepsOnlyLastTurnThinking(m) && res.Exchanges[0].Status >= 400 {
		refusal := gjson.GetBytes(res.Exchanges[0].Response, "error.message").String()
		if refusal == "" {
			refusal = gjson.GetBytes(res.Exchanges[0].Response, "message").String() // Bedrock's envelope
		}
		if refusal == "" {
			refusal = string(res.Exchanges[0].Response)
		}
		wasted = fail("a foreign signature on an earlier turn, for "+m+", which keeps only the last turn's thinking (its profile's prior_thinking)",
			"the earlier turn's thinking left out, so nothing is refused",
			fmt.Sprintf("it was replayed and refused (%d): %s", res.Exchanges[0].Status, refusal))
	}
	if len(res.Exchanges) != 2 || len(res.Verdicts) != 1 {
		return fail("a foreign signature replayed on an earlier turn", "a refusal, one learnt verdict and one retry", fmt.Sprintf("%d requests and verdicts %v", len(res.Exchanges), res.Verdicts))
	}
	refused := opaqueValues(gjson.ParseBytes(res.Exchanges[0].Body))
	learnt := c.Session.Config.RejectedSignatures
	if len(learnt) == 0 {
		return fail("the session's model config after the refusal", "the refused signatures' fingerprints", "none recorded: the retry went without thinking and nothing was learnt")
	}
	for _, fp := range learnt {
		if !slices.ContainsFunc(refused, func(v string) bool {
			return fp == engine.Fingerprint("thinking", v) || fp == engine.Fingerprint("redacted_thinking", v)
		}) {
			return fail("the session's model config after the refusal", "fingerprints of the refused request's signed blocks only", "a fingerprint of no refused block: "+short(fp))
		}
	}
	retried := stringValues(gjson.ParseBytes(res.Exchanges[1].Body))
	if retried[foreignSignature] {
		return fail("the retry", "the refused blocks left out", "the foreign signature sent again")
	}
	c.Note("learnt %d refused signature(s) from the refusal (%d) and retried once", len(learnt), res.Exchanges[0].Status)

	resumed, err := c.Impl.Reload(ctx, c.Session)
	if err != nil {
		return err
	}
	if !slices.Equal(resumed.Config.RejectedSignatures, learnt) {
		return fail("the resumed session's model config", fmt.Sprintf("the learnt fingerprints %v", learnt), fmt.Sprint(resumed.Config.RejectedSignatures))
	}
	if len(res.Message.ToolCalls) > 0 {
		resumed.Messages = append(resumed.Messages, engine.Message{
			Role: "tool", ToolCallID: res.Message.ToolCalls[0].ID, Name: res.Message.ToolCalls[0].Function.Name,
			Content: []byte(`"The notes say the TTL is configurable."`),
		})
	} else {
		resumed.Messages = append(resumed.Messages, engine.Message{Role: "user", Content: []byte(`"And the next step?"`)})
	}
	again, err := c.TurnOn(ctx, resumed, false)
	if err := accepted("the first turn after resume", again, err); err != nil {
		return err
	}
	sent := stringValues(gjson.ParseBytes(again.Exchanges[0].Body))
	for _, v := range refused {
		if sent[v] {
			return fail("the first request after resume", "no signature refused before", short(v)+" was sent again")
		}
	}
	for _, v := range storedOpaque(res.Message) {
		if !sent[v] {
			return fail("the first request after resume", "every signature issued after the refusal, byte for byte", short(v)+" missing")
		}
	}
	return wasted
}
