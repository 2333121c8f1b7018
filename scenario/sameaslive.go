package scenario

import (
	"bytes"
	"context"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/internal/jsondiff"
)

// sameAsLive checks that another copy of the conversation's session (a
// resumed one, a branch) is shaped byte-identically to the live session
// and answered with the same conclusions: both run their next turn, the
// live one on a copy so the conversation's session is left as it was.
// While recording, the turns of [Regressions] applied to the live session
// are sent too, so a copy that lost its reasoning is judged by the
// provider's own answer. It returns the size of the live request.
func sameAsLive(ctx context.Context, c *Conv, what string, other *engine.Session) (int, error) {
	live, err := c.Shape(ctx, c.Session, false)
	if err != nil {
		return 0, err
	}
	again, err := c.Shape(ctx, other, false)
	if err != nil {
		return 0, err
	}
	var shape error
	if !bytes.Equal(live, again) {
		diffs, _ := jsondiff.Diff(live, again)
		shape = fail(what+"'s request", "byte-identical to the live session's", jsondiff.Format(diffs))
	}
	if !c.Replaying() {
		for _, g := range Regressions {
			if _, err := c.TurnOn(ctx, g.Regress(c.Session), false); err != nil && isTransportError(err) {
				return 0, err
			}
		}
	}
	want, err := c.TurnOn(ctx, c.Session.Clone(), false)
	if err := accepted("the live session's turn", want, err); err != nil {
		return 0, err
	}
	got, err := c.TurnOn(ctx, other, false)
	if err := accepted("the turn of "+what, got, err); err != nil {
		if shape != nil && isUnverified(err) {
			return 0, shape // judged without the provider's answer: the request itself is wrong
		}
		return 0, err
	}
	if missing := minus(AnswerMemos(want.Message), AnswerMemos(got.Message)); len(missing) > 0 {
		actual := "the answer no longer states " + memoList(missing) + quoteAnswer(got)
		if shape != nil {
			actual += "; its request: " + shape.(*Failure).Actual
		}
		return 0, fail("the answer to "+what, "the live session's conclusions ("+memoList(AnswerMemos(want.Message))+")", actual)
	}
	if shape != nil {
		return 0, shape
	}
	return len(live), nil
}
