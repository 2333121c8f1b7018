package scenario

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/tidwall/gjson"
)

// learnsOpaqueRefusals reports whether fallback applies to a native target
// through its opaque carriers: a Responses route learns a refused
// encrypted or signed reasoning item (fingerprinted in the session's model
// config) when its provider refuses one it cannot verify.
func learnsOpaqueRefusals(t matrix.Target, p *providers.Profile) (bool, string) {
	return refusesUnverifiable(t, p, engine.ModeResponses, "reasoning.",
		"the provider refuses no reasoning item it cannot verify, so there is nothing to learn")
}

// refusesUnverifiable reports whether a target of api mode refuses, by a
// rule of its profile for its model, an opaque value under field prefix
// it cannot verify. A target of another api mode gives false and an empty
// reason, leaving the decision to the caller; otherwise false comes with
// none, the reason there is nothing to learn.
func refusesUnverifiable(t matrix.Target, p *providers.Profile, mode engine.APIMode, prefix, none string) (bool, string) {
	if t.Route.APIMode != mode {
		return false, ""
	}
	for _, r := range p.Rules {
		if r.When.Kind == providers.ConditionSignatureInvalid && strings.HasPrefix(r.When.Field, prefix) && r.When.AppliesTo(t.Route.Model) {
			return true, ""
		}
	}
	return false, none
}

// opaqueFallback is fallback for opaque carriers: a stored turn whose
// signed or encrypted reasoning the provider no longer accepts (its key
// rotated, its organisation changed — played by tampering the stored
// values) is refused; the refusal is learnt, the request retried exactly
// once without it, the verdict persisted, and after resume the first
// request leaves it out and is accepted as sent.
func opaqueFallback(ctx context.Context, c *Conv) error {
	c.User(questions[0])
	call, err := c.Turn(ctx, false)
	if err := accepted("the tool-call turn", call, err); err != nil {
		return err
	}
	if len(opaqueValues(gjson.ParseBytes(call.Exchanges[0].Response))) == 0 {
		return fail("the tool-call response", "signed or encrypted reasoning", "none")
	}
	if err := c.ToolResult("The cache TTL is 0 in CI."); err != nil {
		return err
	}
	last := len(c.Session.Messages) - 2
	stale, err := mutateOpaque(c.Session.Messages[last], func(s string) (string, bool) { return tamper(s), true })
	if err != nil {
		return err
	}
	c.Session.Messages[last] = stale
	refused := storedOpaque(stale)
	res, err := c.Turn(ctx, false)
	if err != nil {
		return err
	}
	if len(res.Exchanges) != 2 || len(res.Verdicts) != 1 {
		return fail("a stored turn whose reasoning the provider no longer accepts", "a refusal, one learnt verdict and one retry", fmt.Sprintf("%d requests and verdicts %v", len(res.Exchanges), res.Verdicts))
	}
	learnt := c.Session.Config
	c.Note("learnt %d refused value(s) from the refusal (%d) and retried once", len(learnt.SealedBlobs)+len(learnt.RejectedSignatures), res.Exchanges[0].Status)

	resumed, err := c.Impl.Reload(ctx, c.Session)
	if err != nil {
		return err
	}
	if !slices.Equal(resumed.Config.SealedBlobs, learnt.SealedBlobs) || !slices.Equal(resumed.Config.RejectedSignatures, learnt.RejectedSignatures) {
		return fail("the resumed session's model config", fmt.Sprintf("the learnt fingerprints %v %v", learnt.SealedBlobs, learnt.RejectedSignatures),
			fmt.Sprintf("%v %v", resumed.Config.SealedBlobs, resumed.Config.RejectedSignatures))
	}
	resumed.Messages = append(resumed.Messages, engine.Message{Role: "user", Content: []byte(`"And the next step?"`)})
	again, err := c.TurnOn(ctx, resumed, false)
	if err := accepted("the first turn after resume", again, err); err != nil {
		return err
	}
	sent := stringValues(gjson.ParseBytes(again.Exchanges[0].Body))
	for _, v := range refused {
		if sent[v] {
			return fail("the first request after resume", "no value refused before", short(v)+" was sent again")
		}
	}
	return nil
}
