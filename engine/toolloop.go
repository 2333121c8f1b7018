package engine

// LastRealUser returns the index of the last real user message of a
// history, or -1 when it has none. A user message that directly follows
// tool results (a steer merged into the tool-result turn) does not count:
// it belongs to that turn, so it does not end the in-flight tool loop.
// Assistant messages after the returned index form the in-flight tool loop
// (SPEC §4.1).
func LastRealUser(msgs []Message) int {
	last := -1
	inToolTurn := false
	for i := range msgs {
		switch msgs[i].Role {
		case "tool":
			inToolTurn = true
		case "user":
			if !inToolTurn {
				last = i
			}
		default:
			inToolTurn = false
		}
	}
	return last
}

// AnsweredToolCalls returns the ids of the tool calls a history answers:
// those a tool message of the history names. Native dialects drop a tool call
// without its result (a branch that did not copy the result must not send
// an orphan call).
func AnsweredToolCalls(msgs []Message) map[string]bool {
	out := map[string]bool{}
	for i := range msgs {
		if msgs[i].Role == "tool" && msgs[i].ToolCallID != "" {
			out[msgs[i].ToolCallID] = true
		}
	}
	return out
}
