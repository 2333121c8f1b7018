package engine

import (
	"encoding/json"
	"strconv"
)

// SummaryKey marks a compaction summary message (bookkeeping: keys starting
// with "_" never reach a wire).
const SummaryKey = "_compaction_summary"

// CheckpointType is the reasoning_details type of a compaction checkpoint;
// only the newest checkpoint of a history survives compaction.
const CheckpointType = "compaction"

// CompactOptions configures [Compact].
type CompactOptions struct {
	// Threshold is the token budget the compacted history must fit.
	Threshold int
	// MinTailTurns is the number of newest turns always kept (default 1).
	MinTailTurns int
	// Summarize builds the message that replaces the dropped messages; the
	// default states how many messages it replaces.
	Summarize func(dropped []Message) Message
}

// A CompactResult is the outcome of [Compact].
type CompactResult struct {
	// Session is the compacted session: a new history, the old one is never
	// edited. It is the input itself when nothing was compacted.
	Session *Session
	// Dropped is how many messages were summarised away.
	Dropped int
	// Before and After are the estimates before and after.
	Before, After int
	// CannotShrink is set when the history is over the threshold and
	// dropping more is not possible; callers must not compact it again.
	CannotShrink bool
}

// Compact summarises the oldest turns of a history away until it fits the
// threshold (SPEC §7), following the seed's retention rule: the turns it
// keeps keep all their reasoning and encrypted items; it drops only whole
// turns it summarises away, and checkpoints shadowed by a newer one. The
// tail walk prices turns with [PriceMessage] and [StaleThinkingReachesWire],
// exactly as [Estimate] does, so one pass converges: afterwards the
// estimate is under the threshold, or CannotShrink is set.
func Compact(s *Session, d Decision, opt CompactOptions) CompactResult {
	res := CompactResult{Session: s, Before: Estimate(s.Messages, d)}
	res.After = res.Before
	if res.Before <= opt.Threshold {
		return res
	}
	if opt.MinTailTurns < 1 {
		opt.MinTailTurns = 1
	}
	summarize := opt.Summarize
	if summarize == nil {
		summarize = defaultSummary
	}
	msgs := s.Messages
	head := 0
	for head < len(msgs) && msgs[head].Role == "system" {
		head++
	}
	starts := turnStarts(msgs, head)
	if len(starts) == 0 {
		res.CannotShrink = true
		return res
	}
	charge := StaleThinkingReachesWire(d)
	newest := lastAssistant(msgs)
	cost := func(i int) int { return PriceMessage(&msgs[i], charge || i == newest) }

	fixed := 0
	for i := 0; i < head; i++ {
		fixed += cost(i)
	}
	// Walk whole turns newest first, keeping each while it fits.
	cut := len(msgs)
	tail := 0
	for k := len(starts) - 1; k >= 0; k-- {
		end := cut
		turn := 0
		for i := starts[k]; i < end; i++ {
			turn += cost(i)
		}
		kept := len(starts) - k
		dropped := msgs[head:starts[k]]
		summary := 0
		if len(dropped) > 0 {
			sm := summarize(dropped)
			summary = PriceMessage(&sm, false)
		}
		if kept > opt.MinTailTurns && fixed+summary+tail+turn > opt.Threshold {
			break
		}
		tail += turn
		cut = starts[k]
	}
	dropped := msgs[head:cut]
	if len(dropped) == 0 || (len(dropped) == 1 && isSummary(dropped[0])) {
		res.CannotShrink = true
		return res
	}
	out := &Session{ID: s.ID, Config: s.Config.Clone()}
	out.Messages = make([]Message, 0, head+1+len(msgs)-cut)
	for i := 0; i < head; i++ {
		out.Messages = append(out.Messages, msgs[i].Clone())
	}
	sm := summarize(dropped)
	if sm.Extra == nil {
		sm.Extra = map[string]json.RawMessage{}
	}
	sm.Extra[SummaryKey] = json.RawMessage("true")
	out.Messages = append(out.Messages, sm)
	for i := cut; i < len(msgs); i++ {
		out.Messages = append(out.Messages, msgs[i].Clone())
	}
	dropShadowedCheckpoints(out.Messages)
	res.Session = out
	res.Dropped = len(dropped)
	res.After = Estimate(out.Messages, d)
	res.CannotShrink = res.After > opt.Threshold
	return res
}

// turnStarts returns the indexes (from head on) of user messages that open
// a turn; the first turn starts at head even without a user message.
func turnStarts(msgs []Message, head int) []int {
	var starts []int
	for i := head; i < len(msgs); i++ {
		if msgs[i].Role == "user" && !isSummary(msgs[i]) {
			starts = append(starts, i)
		}
	}
	return starts
}

func isSummary(m Message) bool {
	_, ok := m.Extra[SummaryKey]
	return ok
}

func defaultSummary(dropped []Message) Message {
	text := "Summary of " + strconv.Itoa(len(dropped)) + " earlier messages."
	return Message{Role: "user", Content: json.RawMessage(AppendQuoted(nil, text))}
}

// dropShadowedCheckpoints keeps only the newest compaction checkpoint of a
// history (SPEC §7); a reasoning_details list left empty is removed.
func dropShadowedCheckpoints(msgs []Message) {
	newest := -1
	for i := range msgs {
		for _, item := range msgs[i].ReasoningDetails {
			if ItemType(item) == CheckpointType {
				newest = i
			}
		}
	}
	for i := range msgs {
		if i == newest || len(msgs[i].ReasoningDetails) == 0 {
			continue
		}
		var kept []json.RawMessage
		for _, item := range msgs[i].ReasoningDetails {
			if ItemType(item) != CheckpointType {
				kept = append(kept, item)
			}
		}
		if len(kept) == 0 {
			kept = nil
		}
		msgs[i].ReasoningDetails = kept
	}
}

// Branch returns a new session with its own copy of the history and model
// config: RC, R, RD, private records and native blocks are all copied, so
// the branch's next request is shaped exactly as the parent's would be.
func Branch(s *Session, id string) *Session {
	b := s.Clone()
	b.ID = id
	return b
}
