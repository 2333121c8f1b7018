package scenario

import (
	"bytes"
	"context"

	"github.com/replaycheck/replaycheck/internal/jsondiff"
)

var resume = Scenario{
	Name:        "resume",
	Requirement: "A turn reloaded from the session store replays exactly like the live turn.",
	Applies:     always,
	Run: func(ctx context.Context, c *Conv) error {
		if _, err := toolCall(ctx, c, questions[0]); err != nil {
			return err
		}
		resumed, err := c.Impl.Reload(ctx, c.Session)
		if err != nil {
			return err
		}
		live, err := c.Shape(ctx, c.Session, false)
		if err != nil {
			return err
		}
		again, err := c.Shape(ctx, resumed, false)
		if err != nil {
			return err
		}
		if !bytes.Equal(live, again) {
			diffs, _ := jsondiff.Diff(live, again)
			return fail("the resumed session's request", "byte-identical to the live session's", jsondiff.Format(diffs))
		}
		res, err := c.TurnOn(ctx, resumed, false)
		if err := accepted("the turn after resume", res, err); err != nil {
			return err
		}
		c.Note("the resumed request is byte-identical to the live one (%d bytes)", len(live))
		return nil
	},
}
