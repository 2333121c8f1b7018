package scenario

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
)

var compaction = Scenario{
	Name:        "compaction",
	Requirement: "After compaction the request still carries the kept turns' reasoning, the answer stays consistent with the earlier conclusion, and the estimate converges in one pass.",
	Applies:     always,
	Run: func(ctx context.Context, c *Conv) error {
		for _, q := range questions[:3] {
			if _, err := toolLoop(ctx, c, q); err != nil {
				return err
			}
		}
		d, err := c.Decision(ctx)
		if err != nil {
			return err
		}
		estimate, err := c.Impl.Estimate(ctx, c.Session, d)
		if err != nil {
			return err
		}
		threshold := estimate * 3 / 4
		res, err := c.Impl.Compact(ctx, c.Session, d, threshold)
		if err != nil {
			return err
		}
		if res.Dropped == 0 || res.CannotShrink || res.After > threshold {
			return fail("compaction", fmt.Sprintf("one pass under the threshold %d", threshold), fmt.Sprintf("dropped %d messages, estimate %d, cannot shrink %v", res.Dropped, res.After, res.CannotShrink))
		}
		again, err := c.Impl.Compact(ctx, res.Session, d, threshold)
		if err != nil {
			return err
		}
		if again.Dropped != 0 || again.CannotShrink {
			return fail("a second compaction of the unchanged history", "no work", fmt.Sprintf("dropped %d more, cannot shrink %v", again.Dropped, again.CannotShrink))
		}
		var kept, dropped []string
		for _, m := range res.Session.Messages {
			kept = append(kept, reasoningMemos(m)...)
		}
		for _, m := range c.Session.Messages {
			for _, memo := range reasoningMemos(m) {
				if !slices.Contains(kept, memo) {
					dropped = append(dropped, memo)
				}
			}
		}
		c.Session = res.Session
		c.User(questions[3])
		final, err := c.Turn(ctx, false)
		if err := accepted("the first turn after compaction", final, err); err != nil {
			return err
		}
		body := string(final.Exchanges[0].Body)
		if engine.StaleThinkingReachesWire(d) {
			for _, memo := range kept {
				if !strings.Contains(body, "[memo:"+memo+"]") {
					return fail("the request after compaction", "the kept turns' reasoning on the route's carriers (memo:"+memo+")", "absent")
				}
			}
		}
		stated := memos(memoInAnswer, answerText(final.Message))
		for _, memo := range stated {
			if slices.Contains(dropped, memo) {
				return fail("the answer after compaction", "only kept turns' conclusions", "it states dropped memo:"+memo)
			}
		}
		if len(stated) > 0 {
			c.Note("dropped %d messages; the answer still states the earlier conclusions %s", res.Dropped, strings.Join(stated, ", "))
		} else {
			c.Note("dropped %d messages; the provider's answer states no earlier reasoning (it reads none of what the route sends)", res.Dropped)
		}
		return nil
	},
}
