package scenario

import (
	"context"
)

var resume = Scenario{
	Name:        "resume",
	Requirement: "A turn reloaded from the session store replays exactly like the live turn, and the provider's answer to it states the same conclusions.",
	Applies:     always,
	Run: func(ctx context.Context, c *Conv) error {
		if _, err := toolCall(ctx, c, questions[0]); err != nil {
			return err
		}
		resumed, err := c.Impl.Reload(ctx, c.Session)
		if err != nil {
			return err
		}
		stored := resumed.Clone()
		n, err := sameAsLive(ctx, c, "the resumed session", resumed)
		if err != nil {
			return err
		}
		if err := sameHistory("the resumed session", c.Session, stored); err != nil {
			return err
		}
		c.Note("the resumed request is byte-identical to the live one (%d bytes)", n)
		return nil
	},
}
