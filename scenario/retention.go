package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/internal/jsondiff"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// retained finds the messages of orig a compacted history kept (its
// newest messages, matched by role, content and tool calls) and checks the
// seed's retention rule on them: compaction drops whole turns, and the
// turns it keeps keep every reasoning carrier, encrypted and signed item
// byte for byte; only checkpoints shadowed by a newer kept one go. keptFrom
// is the index in orig of the first kept message.
func retained(orig, compacted *engine.Session) (keptFrom int, err error) {
	i, j := len(orig.Messages)-1, len(compacted.Messages)-1
	for i >= 0 && j >= 0 && orig.Messages[i].Role != "system" && sameMessage(orig.Messages[i], compacted.Messages[j]) {
		i, j = i-1, j-1
	}
	keptFrom = i + 1
	if keptFrom == len(orig.Messages) {
		return keptFrom, fail("the compacted history", "the newest turn kept as it was", "its last message is not the history's last message")
	}
	if orig.Messages[keptFrom].Role != "user" {
		return keptFrom, fail("the compacted history", "whole turns dropped", fmt.Sprintf("it keeps a %s message of a turn whose question it dropped", orig.Messages[keptFrom].Role))
	}
	newest := -1
	for k := keptFrom; k < len(orig.Messages); k++ {
		if slices.ContainsFunc(orig.Messages[k].ReasoningDetails, isCheckpoint) {
			newest = k
		}
	}
	for k := keptFrom; k < len(orig.Messages); k++ {
		want := orig.Messages[k].Clone()
		if k != newest {
			want.ReasoningDetails = slices.DeleteFunc(want.ReasoningDetails, isCheckpoint)
			if len(want.ReasoningDetails) == 0 {
				want.ReasoningDetails = nil
			}
		}
		got := compacted.Messages[j+1+k-keptFrom]
		w, g := reasoningOf(want), reasoningOf(got)
		if !bytes.Equal(w, g) {
			diffs, _ := jsondiff.Diff(w, g)
			return keptFrom, fail(fmt.Sprintf("kept message %d (%s) after compaction", k, want.Role),
				"its reasoning, encrypted and signed items byte for byte, less only checkpoints a newer one shadows", jsondiff.Format(diffs))
		}
	}
	return keptFrom, nil
}

// sameMessage reports whether two messages are the same message of a
// conversation, whatever their reasoning: role, content and tool calls.
func sameMessage(a, b engine.Message) bool {
	if a.Role != b.Role || a.ToolCallID != b.ToolCallID || !bytes.Equal(a.Content, b.Content) || len(a.ToolCalls) != len(b.ToolCalls) {
		return false
	}
	for i := range a.ToolCalls {
		if a.ToolCalls[i].ID != b.ToolCalls[i].ID {
			return false
		}
	}
	return true
}

// reasoningOf is the JSON of everything a message carries of its
// reasoning: the standard carriers, the private and native fields, the
// native blocks and the per-call signatures.
func reasoningOf(m engine.Message) []byte {
	p := engine.Message{
		Role: m.Role, ReasoningContent: m.ReasoningContent, Reasoning: m.Reasoning, ReasoningDetails: m.ReasoningDetails,
		ExtraContent: m.ExtraContent, ReasoningOpaque: m.ReasoningOpaque, ReasoningText: m.ReasoningText, Native: m.Native,
	}
	for _, tc := range m.ToolCalls {
		p.ToolCalls = append(p.ToolCalls, engine.ToolCall{ID: tc.ID, ExtraContent: tc.ExtraContent, Function: engine.FunctionCall{ThoughtSignature: tc.Function.ThoughtSignature}})
	}
	b, err := json.Marshal(p)
	if err != nil {
		return []byte(err.Error())
	}
	return b
}

func isCheckpoint(item json.RawMessage) bool { return engine.ItemType(item) == engine.CheckpointType }

// checkpoint is a compaction checkpoint item (an opaque summary the
// provider issued) for the checkpoint probe.
func checkpoint(id string) json.RawMessage {
	return json.RawMessage(`{"type":"compaction","id":"` + id + `","encrypted_content":"Y2hlY2twb2ludCA=` + id + `"}`)
}

// checkpointRule compacts a copy of the conversation's history holding
// three checkpoints (on its first, its second-to-last and its last
// assistant messages) and checks that only the checkpoints the newest one
// shadows are dropped, every other item of the kept turns byte for byte.
// The copy is never sent.
func checkpointRule(ctx context.Context, c *Conv, d engine.Decision) error {
	probe := c.Session.Clone()
	var assistants []int
	for i, m := range probe.Messages {
		if m.Role == "assistant" {
			assistants = append(assistants, i)
		}
	}
	if len(assistants) < 3 {
		return nil
	}
	for n, i := range []int{assistants[0], assistants[len(assistants)-2], assistants[len(assistants)-1]} {
		probe.Messages[i].ReasoningDetails = append(probe.Messages[i].ReasoningDetails, checkpoint(fmt.Sprintf("cmp_%d", n)))
	}
	estimate, err := c.Impl.Estimate(ctx, probe, d)
	if err != nil {
		return err
	}
	res, err := c.Impl.Compact(ctx, probe, d, estimate*3/4)
	if err != nil {
		return err
	}
	if _, err := retained(probe, res.Session); err != nil {
		var f *Failure
		if errors.As(err, &f) {
			f.What = "the checkpoint probe: " + f.What
		}
		return err
	}
	return nil
}

// turnEvidence is what the provider's own answers before compaction say
// about each turn: the memos each answer states, and the ones it states
// first (the turn's own conclusion).
type turnEvidence struct {
	starts []int      // the index of each turn's question
	stated [][]string // the memos each turn's answer states
	own    [][]string // the memos a turn's answer is the first to state
}

// turnMemos reads the evidence of a history's turns from their answers.
func turnMemos(s *engine.Session, answers []engine.TurnResult) turnEvidence {
	var e turnEvidence
	for i, m := range s.Messages {
		if m.Role == "user" {
			e.starts = append(e.starts, i)
		}
	}
	var seen []string
	for _, a := range answers {
		stated := AnswerMemos(a.Message)
		own := minus(stated, seen)
		seen = append(seen, own...)
		e.stated, e.own = append(e.stated, stated), append(e.own, own)
	}
	return e
}

// split returns the conclusions of the turns kept (from message index
// keptFrom on) and of the turns dropped.
func (e turnEvidence) split(keptFrom int) (kept, dropped []string) {
	for k, own := range e.own {
		if k < len(e.starts) && e.starts[k] >= keptFrom {
			kept = append(kept, own...)
		} else {
			dropped = append(dropped, own...)
		}
	}
	slices.Sort(kept)
	slices.Sort(dropped)
	return kept, dropped
}

// What the provider reads of the reasoning the route sends, by its
// answers before compaction.
const (
	readsNothing = iota // no answer states any memo
	readsCurrent        // answers state only their own tool loop's memo
	readsPrior          // the last answer states an earlier turn's memo
)

// reads says what the provider reads, by the last answer before
// compaction: whether it states an earlier turn's conclusion.
func (e turnEvidence) reads() int {
	if len(e.stated) == 0 {
		return readsNothing
	}
	last := len(e.stated) - 1
	var prior []string
	for _, own := range e.own[:last] {
		prior = append(prior, own...)
	}
	switch {
	case len(intersect(e.stated[last], prior)) > 0:
		return readsPrior
	case slices.ContainsFunc(e.own, func(o []string) bool { return len(o) > 0 }):
		return readsCurrent
	}
	return readsNothing
}

// intersect returns the members of a that are in b, in a's order.
func intersect(a, b []string) []string {
	var out []string
	for _, s := range a {
		if slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// minus returns the members of a that are not in b, in a's order.
func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// memoList names memos as the simulator's answers do: "memo:a, memo:b".
func memoList(ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = "memo:" + id
	}
	return strings.Join(out, ", ")
}

// quoteAnswer quotes the provider's answer for a failure.
func quoteAnswer(res engine.TurnResult) string {
	return fmt.Sprintf("; the provider answered %q", answerText(res.Message))
}

// isUnverified reports whether err is a request the cassette has no
// recorded answer for.
func isUnverified(err error) bool { return errors.Is(err, harness.ErrNoMatch) }
