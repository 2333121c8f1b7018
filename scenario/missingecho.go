package scenario

import (
	"context"
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/tidwall/sjson"
)

var missingEcho = Scenario{
	Name:        "missing-echo",
	Requirement: "A provider that refuses a tool-call turn without its reasoning gets the one-space pad on a bare tool turn.",
	Applies: func(t matrix.Target, p *providers.Profile) (bool, string) {
		if t.Route.APIMode == engine.ModeResponses {
			return false, "the responses dialect never pads: a reasoning item is replayed as issued or not at all, never made up"
		}
		// reasoning counts too: a gateway that passes its upstream only
		// `reasoning` refuses a bare turn the pad (reasoning_content)
		// cannot help, and the cell shows it.
		if refusesFieldFor(t, p, providers.ConditionToolTurnFieldMissing, "reasoning_content", "reasoning") || refusesUnsignedThinking(t, p) {
			return true, ""
		}
		return false, "the provider does not require reasoning on tool-call turns"
	},
	Run: func(ctx context.Context, c *Conv) error {
		c.User(questions[0])
		c.Session.Messages = append(c.Session.Messages, bareTurn())
		if err := c.ToolResult("The notes say the TTL is configurable."); err != nil {
			return err
		}
		res, err := c.Turn(ctx, false)
		if !c.Replaying() && len(res.Exchanges) > 0 {
			// Evidence for other tables: the same turn with the empty
			// string where the pad would be (DeepSeek V4 refuses "").
			send := c.sendEmptyPad
			if c.Target.Route.APIMode == engine.ModeAnthropic {
				send = c.sendUnpadded
			}
			if err := send(ctx, res.Exchanges[0]); err != nil {
				return err
			}
		}
		if err := accepted("the turn after a bare tool-call turn", res, err); err != nil {
			return err
		}
		c.Note("sent %s", orNone(res.Exchanges[0].Carried))
		return nil
	},
}

// sendEmptyPad records the provider's answer to a request whose bare
// tool-call turn carries reasoning_content "" — a value the engine never
// sends, recorded so the cassette shows that "" counts as missing.
func (c *Conv) sendEmptyPad(ctx context.Context, ex engine.Exchange) error {
	i := len(c.Session.Messages) - 2 // the bare tool-call turn
	body, err := sjson.SetBytes(ex.Body, fmt.Sprintf("messages.%d.reasoning_content", i), "")
	if err != nil {
		return err
	}
	_, _, err = c.send(ctx, ex.Path, body)
	return err
}
