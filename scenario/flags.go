package scenario

import (
	"context"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
)

var flags = Scenario{
	Name:        "flags",
	Requirement: "A vendor keep-thinking flag travels with the request, so the model still sees an earlier turn's reasoning.",
	Applies: func(t matrix.Target, p *providers.Profile) (bool, string) {
		for _, f := range p.Flags {
			if f.Effect == providers.EffectKeepsPriorReasoning && f.AppliesTo(t.Route.Model) {
				return true, ""
			}
		}
		return false, "the provider has no keep-thinking flag for this model"
	},
	Run: func(ctx context.Context, c *Conv) error {
		if _, err := toolLoop(ctx, c, questions[0]); err != nil {
			return err
		}
		prior := reasoningMemos(c.Session.Messages[len(c.Session.Messages)-1])
		second, err := toolLoop(ctx, c, questions[1])
		if err != nil {
			return err
		}
		stated := memos(memoInAnswer, answerText(second.Message))
		for _, memo := range prior {
			if !slices.Contains(stated, memo) {
				return fail("the answer to the second question", "the first question's reasoning still in context (memo:"+memo+"): the vendor keep-thinking flag must travel with the request", answerText(second.Message))
			}
		}
		d, err := c.Decision(ctx)
		if err != nil {
			return err
		}
		c.Note("flags %s; the answer still sees the first turn's reasoning", strings.Join(d.FlagIDs, ", "))
		return nil
	},
}
