package scenario

import (
	"context"
)

var branch = Scenario{
	Name:        "branch",
	Requirement: "A branch carries its own copy of every carrier, its next request is shaped exactly as the parent's and answered with the same conclusions.",
	Applies:     always,
	Run: func(ctx context.Context, c *Conv) error {
		if _, err := toolCall(ctx, c, questions[0]); err != nil {
			return err
		}
		b, err := c.Impl.Branch(ctx, c.Session, "branch")
		if err != nil {
			return err
		}
		n, stored := len(c.Session.Messages), b.Clone()
		if _, err := sameAsLive(ctx, c, "the branch", b); err != nil {
			return err
		}
		if err := sameHistory("the branch", c.Session, stored); err != nil {
			return err
		}
		if len(c.Session.Messages) != n {
			return fail("the parent session", "unchanged by the branch's turn", "it grew")
		}
		return nil
	},
}
