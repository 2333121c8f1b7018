package scenario

import (
	"encoding/json"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/replaycheck/replaycheck/engine"
)

// A Regression is one likely wrong way to carry a session's turns through
// compaction, resume or branch: the behaviour before the seed's fix.
// Recording sends the provider the requests a regressed implementation
// would send, so replaying such an implementation is judged by the
// provider's own answer (a kept conclusion it no longer states), not left
// unverified.
type Regression struct {
	// Name says what the regression loses, e.g. "kept turns without reasoning".
	Name string
	// Strip returns a copy of a message with what the regression loses
	// removed; it never edits m.
	Strip func(m engine.Message) engine.Message
}

// Regressions are the likely wrong ways the variant battery records:
// every reasoning carrier removed, and only the encrypted and signed items
// removed (readable reasoning kept).
var Regressions = []Regression{
	{Name: "kept turns without reasoning", Strip: StripReasoning},
	{Name: "kept turns without encrypted items", Strip: StripOpaque},
}

// Regress returns a new session whose messages are s's with the
// regression's Strip applied; s is never edited.
func (g Regression) Regress(s *engine.Session) *engine.Session {
	out := s.Clone()
	for i, m := range out.Messages {
		out.Messages[i] = g.Strip(m)
	}
	return out
}

// StripReasoning returns a copy of m without any reasoning: no RC, R or
// RD (compaction checkpoints excepted), no private record, no Gemini or
// Copilot signatures, and none of the native reasoning blocks (Anthropic
// thinking and redacted thinking, Converse reasoningContent, Responses
// reasoning items, Gemini thought parts and thoughtSignature).
func StripReasoning(m engine.Message) engine.Message {
	m = m.Clone()
	m.ReasoningContent, m.Reasoning, m.ReasoningOpaque, m.ReasoningText, m.ExtraContent = nil, nil, nil, nil, nil
	m.ReasoningDetails = keepItems(m.ReasoningDetails, func(it json.RawMessage) (json.RawMessage, bool) {
		return it, engine.ItemType(it) == engine.CheckpointType
	})
	stripCalls(&m)
	if m.Native != nil {
		m.Native.Blocks = nonNil(keepItems(m.Native.Blocks, func(b json.RawMessage) (json.RawMessage, bool) {
			v := gjson.ParseBytes(b)
			switch {
			case v.Get("type").Str == "thinking", v.Get("type").Str == "redacted_thinking", v.Get("type").Str == "reasoning",
				v.Get("reasoningContent").Exists(), v.Get("thought").Bool():
				return nil, false
			}
			return deleteKeys(b, "thoughtSignature"), true
		}))
	}
	return m
}

// StripOpaque returns a copy of m without its encrypted and signed items,
// readable reasoning kept: encrypted and redacted items and blocks are
// removed, signatures and encrypted content deleted from the items that
// hold them, and the opaque fields of the private record (Gemini text-turn
// signature, Copilot reasoning_opaque) dropped with the live fields.
func StripOpaque(m engine.Message) engine.Message {
	m = m.Clone()
	m.ReasoningOpaque, m.ExtraContent = nil, nil
	opaque := func(it json.RawMessage) (json.RawMessage, bool) {
		v := gjson.ParseBytes(it)
		switch v.Get("type").Str {
		case engine.CheckpointType:
			return it, true // a checkpoint is not reasoning; only the newest one counts (checkpointRule)
		case "reasoning.encrypted", "redacted_thinking":
			return nil, false
		case engine.RecordType:
			it = deleteKeys(it, "reasoning_opaque", "extra_content")
			return it, len(gjson.ParseBytes(it).Map()) > 1
		}
		if v.Get("reasoningContent.redactedContent").Exists() {
			return nil, false
		}
		return deleteKeys(it, "signature", "encrypted_content", "thoughtSignature", "reasoningContent.reasoningText.signature"), true
	}
	m.ReasoningDetails = keepItems(m.ReasoningDetails, opaque)
	stripCalls(&m)
	if m.Native != nil {
		m.Native.Blocks = nonNil(keepItems(m.Native.Blocks, opaque))
	}
	return m
}

// stripCalls removes the per-call signatures of m's tool calls.
func stripCalls(m *engine.Message) {
	for i := range m.ToolCalls {
		m.ToolCalls[i].ExtraContent = nil
		m.ToolCalls[i].Function.ThoughtSignature = ""
	}
}

// keepItems maps items through f, keeping those f keeps; an empty result
// is nil, so the carrier is absent rather than empty.
func keepItems(items []json.RawMessage, f func(json.RawMessage) (json.RawMessage, bool)) []json.RawMessage {
	var out []json.RawMessage
	for _, it := range items {
		if it, ok := f(it); ok {
			out = append(out, it)
		}
	}
	return out
}

// deleteKeys returns b without the keys at the given paths.
func deleteKeys(b json.RawMessage, paths ...string) json.RawMessage {
	for _, p := range paths {
		if gjson.GetBytes(b, p).Exists() {
			if out, err := sjson.DeleteBytes(b, p); err == nil {
				b = out
			}
		}
	}
	return b
}

// nonNil keeps an emptied block list a list (native turns always have one).
func nonNil(blocks []json.RawMessage) []json.RawMessage {
	if blocks == nil {
		return []json.RawMessage{}
	}
	return blocks
}
