package scenario

import (
	"bytes"
	"context"

	"github.com/replaycheck/replaycheck/internal/jsondiff"
)

var branch = Scenario{
	Name:        "branch",
	Requirement: "A branch carries its own copy of every carrier and its next request is shaped exactly as the parent's.",
	Applies:     always,
	Run: func(ctx context.Context, c *Conv) error {
		if _, err := toolCall(ctx, c, questions[0]); err != nil {
			return err
		}
		b, err := c.Impl.Branch(ctx, c.Session, "branch")
		if err != nil {
			return err
		}
		parent, err := c.Shape(ctx, c.Session, false)
		if err != nil {
			return err
		}
		child, err := c.Shape(ctx, b, false)
		if err != nil {
			return err
		}
		if !bytes.Equal(parent, child) {
			diffs, _ := jsondiff.Diff(parent, child)
			return fail("the branch's request", "identical to the parent's", jsondiff.Format(diffs))
		}
		n := len(c.Session.Messages)
		res, err := c.TurnOn(ctx, b, false)
		if err := accepted("the branch's turn", res, err); err != nil {
			return err
		}
		if len(c.Session.Messages) != n {
			return fail("the parent session", "unchanged by the branch's turn", "it grew")
		}
		return nil
	},
}
