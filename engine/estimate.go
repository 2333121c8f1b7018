package engine

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// OpaqueItemTokens is the fixed price of one opaque carrier (a signature,
// encrypted or redacted data, a thought signature, an opaque blob): the
// client cannot count tokens it cannot read, so every opaque item costs the
// same whatever its size (SPEC §7). Both the preflight estimate and the
// compaction tail walk use it through [PriceMessage].
const OpaqueItemTokens = 16

// messageOverhead is the per-message envelope cost.
const messageOverhead = 10

// StaleThinkingReachesWire reports whether the reasoning of older assistant
// turns reaches the wire on the decided route: on chat routes when any
// standard carrier is read, on native routes when the dialect policy
// replays earlier turns' thinking ([Decision.PriorThinking]). The preflight
// estimate and the compaction tail walk share this one predicate, so they
// always agree and compaction never loops (SPEC §7).
func StaleThinkingReachesWire(d Decision) bool {
	if d.Native {
		return d.PriorThinking
	}
	return d.Carriers.Has(ReasoningContent) || d.Carriers.Has(Reasoning) || d.Carriers.Has(ReasoningDetails)
}

// TextTokens prices readable text: CJK, Hangul and Kana code points count
// one token each, everything else one token per 4 UTF-8 bytes (rounded up).
func TextTokens(s string) int {
	cjk, other := 0, 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			other++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.In(r, unicode.Han, unicode.Hangul, unicode.Hiragana, unicode.Katakana) {
			cjk++
		} else {
			other += size
		}
		i += size
	}
	return cjk + (other+3)/4
}

// PriceMessage prices one message as the wire carries it. Content, tool
// calls and the envelope always count; when chargeThinking is set the
// readable reasoning counts once (RC, else R, else the readable text inside
// reasoning_details) and each opaque item counts [OpaqueItemTokens].
func PriceMessage(m *Message, chargeThinking bool) int {
	n := messageOverhead + rawTextTokens(m.Content)
	for _, tc := range m.ToolCalls {
		n += TextTokens(tc.Function.Name) + TextTokens(tc.Function.Arguments) + messageOverhead
	}
	if !chargeThinking || m.Role != "assistant" {
		return n
	}
	switch {
	case m.ReasoningContent != nil && strings.TrimSpace(*m.ReasoningContent) != "":
		n += TextTokens(*m.ReasoningContent)
	case m.Reasoning != nil && strings.TrimSpace(*m.Reasoning) != "":
		n += TextTokens(*m.Reasoning)
	default:
		for _, item := range m.ReasoningDetails {
			for _, f := range []string{"text", "summary", "thinking"} {
				n += TextTokens(gjson.GetBytes(item, f).String())
			}
		}
	}
	return n + OpaqueItemTokens*opaqueItems(m)
}

// opaqueItems counts a message's opaque carriers.
func opaqueItems(m *Message) int {
	n := 0
	for _, item := range m.ReasoningDetails {
		for _, f := range []string{"signature", "data", "encrypted_content"} {
			if gjson.GetBytes(item, f).String() != "" {
				n++
			}
		}
		if ItemType(item) == RecordType {
			n++
		}
	}
	if m.Native != nil {
		for _, b := range m.Native.Blocks {
			if gjson.GetBytes(b, "signature").String() != "" || gjson.GetBytes(b, "data").String() != "" ||
				gjson.GetBytes(b, "thoughtSignature").String() != "" || gjson.GetBytes(b, "encrypted_content").String() != "" {
				n++
			}
		}
	}
	for _, tc := range m.ToolCalls {
		if ThoughtSignatureOf(tc.ExtraContent) != "" || tc.Function.ThoughtSignature != "" {
			n++
		}
	}
	return n
}

func rawTextTokens(raw json.RawMessage) int {
	if len(raw) == 0 {
		return 0
	}
	v := gjson.ParseBytes(raw)
	if v.Type == gjson.String {
		return TextTokens(v.Str)
	}
	return TextTokens(string(raw))
}

// Estimate is the preflight token estimate of a history on the decided
// route: every message priced by [PriceMessage], charging thinking where
// [StaleThinkingReachesWire] says it reaches the wire, and always for the
// newest assistant message.
func Estimate(msgs []Message, d Decision) int {
	charge := StaleThinkingReachesWire(d)
	newest := lastAssistant(msgs)
	n := 0
	for i := range msgs {
		n += PriceMessage(&msgs[i], charge || i == newest)
	}
	return n
}

func lastAssistant(msgs []Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "assistant" {
			return i
		}
	}
	return -1
}
