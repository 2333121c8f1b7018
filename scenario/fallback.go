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
	Requirement: "A refused field is learnt from the refusal, persisted, retried exactly once, and never relearnt after resume; a value complaint is never learnt, a refusal repeated is never retried, and a route that must echo reasoning_content never records it.",
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
		if _, ok := needsReasoningContent(t, p); ok {
			return true, "" // a refusal of reasoning_content must not be learnt
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
		if _, ok := needsReasoningContent(c.Target, c.Profile); ok {
			return mustEchoFallback(ctx, c, d)
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
		play := "a stale row sending every carrier"
		if ok {
			play = dr.describe()
		}
		if err := valueComplaint(ctx, c); err != nil {
			return err
		}
		if err := oneRetry(ctx, c, play); err != nil {
			return err
		}
		res, err := c.Turn(ctx, false)
		learnt := c.Session.Config.RejectedFor(c.Target.Route.Key())
		if why := mustEcho(c, d); why != "" && learnt.Has(engine.ReasoningContent) {
			// Judged before the retry's answer, which no cassette holds
			// under strict replay. The refusal's words are left out: they
			// are what a known failure of the cell is pinned to, and this
			// is another cause.
			return fail(play+", on a route that must echo reasoning_content ("+why+")",
				"reasoning_content never recorded as refused (SPEC §6: the must-echo tier never records it)",
				fmt.Sprintf("recorded %s from the provider's %d and retried without it", learnt, res.Exchanges[0].Status))
		}
		if err != nil {
			return err
		}
		if !ok && len(res.Exchanges) == 1 && len(res.Exchanges[0].Carried) == 0 {
			return &NotApplicableError{Reason: "the route sends no carrier for the provider to drift on, and the implementation does not shape the stale row it is handed (it applies its own route table), so there is nothing to learn"}
		}
		if len(res.Exchanges) < 2 || len(res.Verdicts) != len(res.Exchanges)-1 {
			return fail(play, "a refusal, a learnt verdict and one retry per refused field", fmt.Sprintf("%d requests and verdicts %v", len(res.Exchanges), res.Verdicts))
		}
		c.Note("learnt %s from the refusal and retried once", learnt)

		resumed, err := c.Impl.Reload(ctx, c.Session)
		if err != nil {
			return err
		}
		if got := resumed.Config.RejectedFor(c.Target.Route.Key()); got != learnt {
			return fail("the resumed session's model config", "the verdict "+learnt.String(), got.String())
		}
		resumed.Messages = append(resumed.Messages, engine.Message{Role: "user", Content: []byte(`"And the next step?"`)})
		if err := refusedAgain(ctx, c, resumed, res.Exchanges[0]); err != nil {
			return err
		}
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
