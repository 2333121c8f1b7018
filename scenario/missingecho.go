package scenario

import (
	"context"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
)

var missingEcho = Scenario{
	Name:        "missing-echo",
	Requirement: "A provider that refuses a tool-call turn without reasoning_content gets the one-space pad on a bare tool turn.",
	Applies: func(t matrix.Target, p *providers.Profile) (bool, string) {
		if refusesFieldFor(t, p, providers.ConditionToolTurnFieldMissing, "reasoning_content") {
			return true, ""
		}
		return false, "the provider does not require reasoning_content on tool-call turns"
	},
	Run: func(ctx context.Context, c *Conv) error {
		c.User(questions[0])
		c.Session.Messages = append(c.Session.Messages, bareTurn())
		if err := c.ToolResult("The notes say the TTL is configurable."); err != nil {
			return err
		}
		res, err := c.Turn(ctx, false)
		if err := accepted("the turn after a bare tool-call turn", res, err); err != nil {
			return err
		}
		c.Note("sent %s", orNone(res.Exchanges[0].Carried))
		return nil
	},
}
