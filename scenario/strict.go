package scenario

import (
	"context"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
)

var strictSchema = Scenario{
	Name:        "strict-schema",
	Requirement: "A provider whose schema refuses reasoning keys receives none it refuses, even when history holds every carrier.",
	Applies: func(t matrix.Target, p *providers.Profile) (bool, string) {
		if ok, why := chatOnly(t); !ok {
			return false, why
		}
		if refusesFieldFor(t, p, providers.ConditionAssistantFieldPresent, standardCarriers...) {
			return true, ""
		}
		return false, "the provider refuses no standard carrier"
	},
	Run: func(ctx context.Context, c *Conv) error {
		c.User(questions[0])
		c.Session.Messages = append(c.Session.Messages, foreignTurn())
		if err := c.ToolResult("The cache TTL is 0 in CI."); err != nil {
			return err
		}
		res, err := c.Turn(ctx, false)
		if err := accepted("the turn replaying a foreign reasoning turn", res, err); err != nil {
			return err
		}
		c.Note("sent %s", orNone(res.Exchanges[0].Carried))
		return nil
	},
}
