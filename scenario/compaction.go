package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
)

var compaction = Scenario{
	Name:        "compaction",
	Requirement: "Compaction drops only whole turns and obsoleted checkpoints, the kept turns keep their reasoning and encrypted items byte for byte, the request after it carries them, the provider's answer still states each kept turn's conclusion and none of the dropped, and the estimate converges in one pass.",
	Applies:     always,
	Run: func(ctx context.Context, c *Conv) error {
		var answers []engine.TurnResult
		for _, q := range questions[:3] {
			a, err := toolLoop(ctx, c, q)
			if err != nil {
				return err
			}
			answers = append(answers, a)
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
		keptFrom, intact := retained(c.Session, res.Session)
		if intact == nil {
			intact = checkpointRule(ctx, c, d)
		}
		turns := turnMemos(c.Session, answers)
		kept, dropped := turns.split(keptFrom)
		missing, err := requestHalf(ctx, c, d, keptFrom, res.Session, questions[3])
		if err != nil {
			return err
		}
		var request error
		if len(missing) > 0 {
			request = fail("the request after compaction", "the kept turns' reasoning on the route's carriers", "it no longer carries "+memoList(missing))
		}
		if !c.Replaying() && !c.variant {
			if err := recordRegressions(ctx, c, res.Session, questions[3]); err != nil {
				return err
			}
		}
		c.Session = res.Session
		_, err = toolCall(ctx, c, questions[3])
		var answer engine.TurnResult
		if err == nil {
			answer, err = c.Turn(ctx, false)
			err = accepted("the answer after compaction", answer, err)
		}
		if err != nil {
			if failed := firstOf(request, intact); failed != nil && isUnverified(err) {
				return failed // judged without the provider's answer: the history itself is wrong
			}
			return err
		}
		stated := AnswerMemos(answer.Message)
		if bad := intersect(stated, dropped); len(bad) > 0 {
			return fail("the answer after compaction", "only kept turns' conclusions", "it states dropped "+memoList(bad)+quoteAnswer(answer))
		}
		quality := ""
		switch reads := turns.reads(); {
		case reads == readsPrior:
			if missing := minus(kept, stated); len(missing) > 0 {
				return fail("the answer after compaction", "each kept turn's conclusion ("+memoList(kept)+")", "the answer no longer states "+memoList(missing)+" of a kept turn"+quoteAnswer(answer))
			}
			quality = keptStated + " (" + memoList(kept) + ")"
		case reads == readsCurrent:
			quality = "answer quality n/a: the provider reads only the current tool loop's reasoning the route sends, so no kept turn's conclusion can reach its answer"
		default:
			quality = "answer quality n/a: the provider reads nothing the route sends"
		}
		if failed := firstOf(request, intact); failed != nil {
			return failed
		}
		if turns.reads() != readsPrior {
			if err := c.adviseIfPriorRead(ctx); err != nil {
				return err
			}
		}
		c.Note("dropped %d messages; %s", res.Dropped, quality)
		return nil
	},
}

// recordRegressions sends, while recording, what a regressed compaction
// would send after it: each [Regressions] applied to the compacted
// session, then question's tool loop to its answer. Provider refusals are
// evidence; only transport failures stop the recording.
func recordRegressions(ctx context.Context, c *Conv, compacted *engine.Session, question string) error {
	saved := c.Session
	defer func() { c.Session = saved }()
	for _, g := range Regressions {
		c.Session = g.Regress(compacted)
		if _, err := toolLoop(ctx, c, question); err != nil && isTransportError(err) {
			return err
		}
	}
	return nil
}

// requestHalf returns the memos missing from the request the implementation would send after
// compaction (the compacted session and the next question): on a route
// where earlier turns' reasoning reaches the wire it carries every memo of
// the kept turns' readable reasoning, read from the history as it was
// before compaction.
func requestHalf(ctx context.Context, c *Conv, d engine.Decision, keptFrom int, compacted *engine.Session, question string) (missing []string, err error) {
	if !engine.StaleThinkingReachesWire(d) {
		return nil, nil
	}
	next := compacted.Clone()
	next.Messages = append(next.Messages, engine.Message{Role: "user", Content: json.RawMessage(engine.AppendQuoted(nil, question))})
	body, err := c.Shape(ctx, next, false)
	if err != nil {
		return nil, err
	}
	for _, m := range c.Session.Messages[keptFrom:] {
		for _, memo := range reasoningMemos(m) {
			if !strings.Contains(string(body), "[memo:"+memo+"]") && !slices.Contains(missing, memo) {
				missing = append(missing, memo)
			}
		}
	}
	return missing, nil
}

// firstOf returns the first non-nil error.
func firstOf(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
