package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/internal/jsondiff"
)

// sameHistory checks that another copy of a session (a branch, a reload)
// stores every message's reasoning as the original does (SPEC §8: a
// branch copies RC, R, RD, private records and ordered native blocks; the
// store keeps every carrier). The wire cannot tell: where R or native
// blocks rebuild the request, a copy that lost RC is shaped the same, and
// the loss shows only on a route that reads RC.
func sameHistory(what string, orig, copy *engine.Session) error {
	if len(copy.Messages) != len(orig.Messages) {
		return fail(what+"'s stored history", fmt.Sprintf("the %d messages of the original", len(orig.Messages)), fmt.Sprintf("%d messages", len(copy.Messages)))
	}
	for i, m := range orig.Messages {
		w, g := storedReasoning(m), storedReasoning(copy.Messages[i])
		if !bytes.Equal(w, g) {
			diffs, _ := jsondiff.Diff(w, g)
			return fail(fmt.Sprintf("%s's stored message %d (%s)", what, i, m.Role), "every reasoning carrier, private record and native block of the original byte for byte", jsondiff.Format(diffs))
		}
	}
	return nil
}

// storedReasoning is the JSON of what a message keeps of its reasoning as
// stored: the standard carriers, RD without its private record, the
// private native values however they are held (live fields or the
// record), the native blocks and the per-call signatures.
func storedReasoning(m engine.Message) []byte {
	v := m.NativeValues()
	p := struct {
		RC, R    *string
		RD       []json.RawMessage
		Private  engine.NativeValues
		Native   *engine.NativeTurn
		PerCall  []json.RawMessage
		CallSigs []string
	}{RC: m.ReasoningContent, R: m.Reasoning, Private: v, Native: m.Native}
	for _, it := range m.ReasoningDetails {
		if !engine.IsPrivateRecord(it) {
			p.RD = append(p.RD, it)
		}
	}
	for _, tc := range m.ToolCalls {
		p.PerCall = append(p.PerCall, tc.ExtraContent)
		p.CallSigs = append(p.CallSigs, tc.Function.ThoughtSignature)
	}
	b, err := json.Marshal(p)
	if err != nil {
		return []byte(err.Error())
	}
	return b
}
