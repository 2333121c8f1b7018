package engine

import (
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"
)

// RecordType is the type of the private carrier record (SPEC §3.3).
const RecordType = "hermes.native_assistant"

// NativeValues are the private native fields of an assistant turn: the
// Gemini text-turn signature and Copilot's opaque blob and readable text.
type NativeValues struct {
	ThoughtSignature string
	ReasoningOpaque  string
	ReasoningText    string
}

// Empty reports whether no field is set.
func (v NativeValues) Empty() bool {
	return v.ThoughtSignature == "" && v.ReasoningOpaque == "" && v.ReasoningText == ""
}

// ItemType returns the "type" of a reasoning_details item.
func ItemType(item json.RawMessage) string { return gjson.GetBytes(item, "type").String() }

// IsPrivateRecord reports whether a reasoning_details item is a private
// native record (its type ends in ".native_assistant"). Private records
// never reach a wire.
func IsPrivateRecord(item json.RawMessage) bool {
	return strings.HasSuffix(ItemType(item), ".native_assistant")
}

// ThoughtSignatureOf returns the non-blank signature held by an
// extra_content value, in the nested ({"google":{"thought_signature"}}) or
// flat ({"thought_signature"}) form, or "".
func ThoughtSignatureOf(extra json.RawMessage) string {
	if len(extra) == 0 {
		return ""
	}
	for _, path := range []string{"google.thought_signature", "thought_signature"} {
		if v := gjson.GetBytes(extra, path); v.Type == gjson.String && strings.TrimSpace(v.Str) != "" {
			return v.Str
		}
	}
	return ""
}

// GoogleExtraContent returns the normalised extra_content holding sig.
func GoogleExtraContent(sig string) json.RawMessage {
	return json.RawMessage(`{"google":{"thought_signature":` + quote(sig) + `}}`)
}

// Record returns the values of the message's private record, if it has one.
func (m Message) Record() (NativeValues, bool) {
	for _, item := range m.ReasoningDetails {
		if ItemType(item) != RecordType {
			continue
		}
		return NativeValues{
			ThoughtSignature: ThoughtSignatureOf(json.RawMessage(gjson.GetBytes(item, "extra_content").Raw)),
			ReasoningOpaque:  gjson.GetBytes(item, "reasoning_opaque").String(),
			ReasoningText:    gjson.GetBytes(item, "reasoning_text").String(),
		}, true
	}
	return NativeValues{}, false
}

// Native returns the message's private native values: its record overlaid
// by the live top-level fields (live wins).
func (m Message) NativeValues() NativeValues {
	v, _ := m.Record()
	if s := ThoughtSignatureOf(m.ExtraContent); s != "" {
		v.ThoughtSignature = s
	}
	if m.ReasoningOpaque != nil && *m.ReasoningOpaque != "" {
		v.ReasoningOpaque = *m.ReasoningOpaque
	}
	if m.ReasoningText != nil && *m.ReasoningText != "" {
		v.ReasoningText = *m.ReasoningText
	}
	return v
}

// NewRecord builds a private record item holding v, keys in a fixed order.
func NewRecord(v NativeValues) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"` + RecordType + `"`)
	if v.ThoughtSignature != "" {
		b.WriteString(`,"extra_content":`)
		b.Write(GoogleExtraContent(v.ThoughtSignature))
	}
	if v.ReasoningOpaque != "" {
		b.WriteString(`,"reasoning_opaque":` + quote(v.ReasoningOpaque))
	}
	if v.ReasoningText != "" {
		b.WriteString(`,"reasoning_text":` + quote(v.ReasoningText))
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

// SetRecord stores v as the message's private record, replacing any earlier
// one; an empty v removes the record. Capture calls it so that the native
// fields survive persistence and resume.
func (m *Message) SetRecord(v NativeValues) {
	var kept []json.RawMessage
	for _, item := range m.ReasoningDetails {
		if ItemType(item) != RecordType {
			kept = append(kept, item)
		}
	}
	if !v.Empty() {
		kept = append(kept, NewRecord(v))
	}
	m.ReasoningDetails = kept
}

func quote(s string) string { return string(AppendQuoted(nil, s)) }
