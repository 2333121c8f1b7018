package scenario

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
)

// staleRow plays a stale route row that sends every standard carrier, so
// that the provider's refusal must be learnt at run time: the decision
// keeps everything but its carriers, which become every carrier less those
// recorded as refused, padded on a must-echo family while RC is one.
func staleRow(d engine.Decision, rejected engine.CarrierSet) engine.Decision {
	all := engine.NewCarrierSet(engine.AllCarriers...)
	d.Rejected = all.Intersect(rejected)
	d.Carriers = all.Minus(rejected)
	d.Pad = d.EchoFamily != "" && d.Carriers.Has(engine.ReasoningContent)
	return d
}

var fallback = Scenario{
	Name:        "fallback",
	Requirement: "A refused field is learnt from the refusal, persisted, retried exactly once, and never relearnt after resume.",
	Applies: func(t matrix.Target, p *providers.Profile) (bool, string) {
		if ok, why := learnsOpaqueRefusals(t, p); ok || why != "" {
			return ok, why
		}
		if ok, why := learnsSignatureRefusals(t, p); ok || why != "" {
			return ok, why
		}
		if ok, why := chatOnly(t); !ok {
			return false, why
		}
		if refusesFieldFor(t, p, providers.ConditionAssistantFieldPresent, standardCarriers...) {
			return true, ""
		}
		return false, "the provider refuses no standard carrier, so there is nothing to learn"
	},
	Run: func(ctx context.Context, c *Conv) error {
		switch c.Target.Route.APIMode {
		case engine.ModeResponses:
			return opaqueFallback(ctx, c)
		case engine.ModeAnthropic:
			return signatureFallback(ctx, c)
		}
		d, err := c.Decision(ctx)
		if err != nil {
			return err
		}
		dr, ok, err := driftFor(c.Profile, c.Target, d)
		if err != nil {
			return err
		}
		if ok {
			// The route sends a carrier: the provider drifts to refusing
			// it, whatever layer of the implementation applies its table.
			c.Client = &http.Client{Transport: dr.transport(c.Client.Transport)}
			c.Note("%s", dr.describe())
		} else {
			// The route sends nothing to drift on: a stale row sends every
			// carrier, for implementations that shape the decision given.
			c.restate = staleRow
		}
		c.User(questions[0])
		c.Session.Messages = append(c.Session.Messages, foreignTurn())
		if err := c.ToolResult("The cache TTL is 0 in CI."); err != nil {
			return err
		}
		res, err := c.Turn(ctx, false)
		if err != nil {
			return err
		}
		if !ok && len(res.Exchanges) == 1 && len(res.Exchanges[0].Carried) == 0 {
			return &NotApplicableError{Reason: "the route sends no carrier for the provider to drift on, and the implementation does not shape the stale row it is handed (it applies its own route table), so there is nothing to learn"}
		}
		if len(res.Exchanges) < 2 || len(res.Verdicts) != len(res.Exchanges)-1 {
			play := "a stale row sending every carrier"
			if ok {
				play = dr.describe()
			}
			return fail(play, "a refusal, a learnt verdict and one retry per refused field", fmt.Sprintf("%d requests and verdicts %v", len(res.Exchanges), res.Verdicts))
		}
		learnt := c.Session.Config.RejectedFor(c.Target.Route.Key())
		c.Note("learnt %s from the refusal and retried once", learnt)

		resumed, err := c.Impl.Reload(ctx, c.Session)
		if err != nil {
			return err
		}
		if got := resumed.Config.RejectedFor(c.Target.Route.Key()); got != learnt {
			return fail("the resumed session's model config", "the verdict "+learnt.String(), got.String())
		}
		resumed.Messages = append(resumed.Messages, engine.Message{Role: "user", Content: []byte(`"And the next step?"`)})
		again, err := c.TurnOn(ctx, resumed, false)
		if err := accepted("the first turn after resume", again, err); err != nil {
			return err
		}
		for _, name := range learnt.Names() {
			if slices.Contains(again.Exchanges[0].Carried, name) {
				return fail("the first request after resume", "no "+name+" (refused before)", "it was sent again")
			}
		}
		return nil
	},
}
