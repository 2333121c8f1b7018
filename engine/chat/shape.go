package chat

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/sjson"
)

// Dialect is the chat-completions [engine.Dialect].
type Dialect struct{}

var _ engine.Dialect = Dialect{}

// Mode returns engine.ModeChat.
func (Dialect) Mode() engine.APIMode { return engine.ModeChat }

// Path returns "/chat/completions".
func (Dialect) Path(engine.Route, bool) string { return "/chat/completions" }

// Shape builds the chat request body: model, messages shaped per SPEC §3,
// tools, stream, then the route's vendor flags.
func (Dialect) Shape(s *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	return AppendRequest(make([]byte, 0, sizeHint(s.Messages)), s.Messages, d, req)
}

// sizeHint estimates the wire size of msgs so that shaping allocates the
// body once: the stored text at most twice (RC and R carry the same text),
// the details once, plus a small envelope per message.
func sizeHint(msgs []engine.Message) int {
	n := 256
	for i := range msgs {
		m := &msgs[i]
		n += 96 + len(m.Content) + 2*len(wireText(m))
		for _, it := range m.ReasoningDetails {
			n += len(it) + 1
		}
		for _, tc := range m.ToolCalls {
			n += 96 + len(tc.Function.Arguments) + len(tc.ExtraContent)
		}
	}
	return n + n/8
}

// AppendRequest appends the request body for msgs to dst.
func AppendRequest(dst []byte, msgs []engine.Message, d engine.Decision, req engine.Request) ([]byte, error) {
	model := req.Model
	if model == "" {
		model = d.Route.Model
	}
	dst = append(dst, `{"model":`...)
	dst = engine.AppendQuoted(dst, model)
	dst = append(dst, `,"messages":[`...)
	for i := range msgs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendMessage(dst, &msgs[i], d, req.Quoted)
	}
	dst = append(dst, ']')
	if len(req.Tools) > 0 {
		dst = append(dst, `,"tools":[`...)
		for i, t := range req.Tools {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"type":"function","function":{"name":`...)
			dst = engine.AppendQuoted(dst, t.Name)
			if t.Description != "" {
				dst = append(dst, `,"description":`...)
				dst = engine.AppendQuoted(dst, t.Description)
			}
			if len(t.Parameters) > 0 {
				dst = append(dst, `,"parameters":`...)
				dst = append(dst, t.Parameters...)
			}
			dst = append(dst, `}}`...)
		}
		dst = append(dst, ']')
	}
	if req.Stream {
		dst = append(dst, `,"stream":true`...)
	}
	flags, err := FlagsObject(d.Flags)
	if err != nil {
		return nil, err
	}
	if len(flags) > 2 {
		dst = append(dst, ',')
		dst = append(dst, flags[1:len(flags)-1]...)
	}
	return append(dst, '}'), nil
}

// FlagsObject builds the JSON object the flag settings describe, applied in
// order (a later setting of the same path wins).
func FlagsObject(flags []engine.FlagSetting) ([]byte, error) {
	obj := []byte(`{}`)
	for _, f := range flags {
		var err error
		if obj, err = sjson.SetRawBytes(obj, f.Path, f.Value); err != nil {
			return nil, err
		}
	}
	return obj, nil
}

// Pad is the must-echo placeholder: one space, never "" (DeepSeek V4
// refuses the empty string).
const Pad = " "

// wireText is the reasoning text a wire copy may carry: the first non-blank
// of stored RC, then stored R.
func wireText(m *engine.Message) string {
	if m.ReasoningContent != nil && strings.TrimSpace(*m.ReasoningContent) != "" {
		return *m.ReasoningContent
	}
	if m.Reasoning != nil && strings.TrimSpace(*m.Reasoning) != "" {
		return *m.Reasoning
	}
	return ""
}

// AppendMessage appends the wire copy of one stored message for the
// decided route. Assistant messages get the route's carriers (SPEC §3.1) and
// only their own route's private native fields (§3.3); other messages pass
// through, but a reasoning key the route does not read never reaches it.
// Bookkeeping (keys starting with "_", timestamps, native blocks, call ids)
// never reaches the wire. q, when not nil, has the JSON forms of the
// parsed session's reasoning strings, copied instead of escaped again.
func AppendMessage(dst []byte, m *engine.Message, d engine.Decision, q *engine.QuotedStrings) []byte {
	dst = append(dst, `{"role":`...)
	dst = engine.AppendQuoted(dst, m.Role)
	if m.Content != nil {
		dst = append(dst, `,"content":`...)
		dst = append(dst, m.Content...)
	}
	if m.Name != "" {
		dst = append(dst, `,"name":`...)
		dst = engine.AppendQuoted(dst, m.Name)
	}
	if m.ToolCallID != "" {
		dst = append(dst, `,"tool_call_id":`...)
		dst = engine.AppendQuoted(dst, m.ToolCallID)
	}
	gemini, copilot := d.ReadsNative(engine.NativeGemini), d.ReadsNative(engine.NativeCopilot)
	if len(m.ToolCalls) > 0 {
		dst = append(dst, `,"tool_calls":[`...)
		for i := range m.ToolCalls {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendToolCall(dst, &m.ToolCalls[i], gemini, copilot)
		}
		dst = append(dst, ']')
	}
	if m.Role == "assistant" {
		dst = appendAssistantCarriers(dst, m, d, q, gemini, copilot)
	} else {
		dst = appendPassThroughCarriers(dst, m, d, q)
	}
	return appendExtra(dst, m.Extra)
}

func appendAssistantCarriers(dst []byte, m *engine.Message, d engine.Decision, q *engine.QuotedStrings, gemini, copilot bool) []byte {
	text := wireText(m)
	var quotedText []byte // text as JSON, once written
	if d.Carriers.Has(engine.ReasoningContent) && (text != "" || d.Pad) {
		dst = append(dst, `,"reasoning_content":`...)
		if text == "" {
			dst = engine.AppendQuoted(dst, Pad)
		} else {
			start := len(dst)
			dst = q.AppendQuoted(dst, text)
			quotedText = dst[start:]
		}
	}
	if d.Carriers.Has(engine.Reasoning) && text != "" {
		dst = append(dst, `,"reasoning":`...)
		if quotedText != nil {
			dst = append(dst, quotedText...)
		} else {
			dst = q.AppendQuoted(dst, text)
		}
	}
	if d.Carriers.Has(engine.ReasoningDetails) {
		dst = appendDetails(dst, m.ReasoningDetails)
	}
	if !gemini && !copilot {
		return dst
	}
	v := m.NativeValues()
	if gemini && v.ThoughtSignature != "" {
		dst = append(dst, `,"extra_content":`...)
		dst = append(dst, engine.GoogleExtraContent(v.ThoughtSignature)...)
	}
	if copilot && v.ReasoningOpaque != "" {
		dst = append(dst, `,"reasoning_opaque":`...)
		dst = engine.AppendQuoted(dst, v.ReasoningOpaque)
		if v.ReasoningText != "" {
			dst = append(dst, `,"reasoning_text":`...)
			dst = engine.AppendQuoted(dst, v.ReasoningText)
		}
	}
	return dst
}

// appendDetails appends the reasoning_details key with every item except
// private records; nothing when no item remains.
func appendDetails(dst []byte, items []json.RawMessage) []byte {
	first := true
	for _, item := range items {
		if engine.IsPrivateRecord(item) {
			continue
		}
		if first {
			dst = append(dst, `,"reasoning_details":[`...)
			first = false
		} else {
			dst = append(dst, ',')
		}
		dst = append(dst, item...)
	}
	if !first {
		dst = append(dst, ']')
	}
	return dst
}

// appendPassThroughCarriers keeps a non-assistant message's reasoning keys
// untouched, but only those the route reads.
func appendPassThroughCarriers(dst []byte, m *engine.Message, d engine.Decision, q *engine.QuotedStrings) []byte {
	if m.ReasoningContent != nil && d.Carriers.Has(engine.ReasoningContent) {
		dst = append(dst, `,"reasoning_content":`...)
		dst = q.AppendQuoted(dst, *m.ReasoningContent)
	}
	if m.Reasoning != nil && d.Carriers.Has(engine.Reasoning) {
		dst = append(dst, `,"reasoning":`...)
		dst = q.AppendQuoted(dst, *m.Reasoning)
	}
	if d.Carriers.Has(engine.ReasoningDetails) {
		dst = appendDetails(dst, m.ReasoningDetails)
	}
	return dst
}

func appendToolCall(dst []byte, tc *engine.ToolCall, gemini, copilot bool) []byte {
	dst = append(dst, `{"id":`...)
	dst = engine.AppendQuoted(dst, tc.ID)
	dst = append(dst, `,"type":`...)
	typ := tc.Type
	if typ == "" {
		typ = "function"
	}
	dst = engine.AppendQuoted(dst, typ)
	dst = append(dst, `,"function":{"name":`...)
	dst = engine.AppendQuoted(dst, tc.Function.Name)
	dst = append(dst, `,"arguments":`...)
	dst = engine.AppendQuoted(dst, tc.Function.Arguments)
	if copilot && tc.Function.ThoughtSignature != "" {
		dst = append(dst, `,"thought_signature":`...)
		dst = engine.AppendQuoted(dst, tc.Function.ThoughtSignature)
	}
	dst = append(dst, '}')
	if gemini && engine.ThoughtSignatureOf(tc.ExtraContent) != "" {
		dst = append(dst, `,"extra_content":`...)
		dst = append(dst, tc.ExtraContent...)
	}
	return append(dst, '}')
}

// appendExtra appends a stored message's other keys, sorted, except
// bookkeeping keys starting with "_".
func appendExtra(dst []byte, extra map[string]json.RawMessage) []byte {
	if len(extra) > 0 {
		keys := make([]string, 0, len(extra))
		for k := range extra {
			if !strings.HasPrefix(k, "_") {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			dst = append(dst, ',')
			dst = engine.AppendQuoted(dst, k)
			dst = append(dst, ':')
			dst = append(dst, extra[k]...)
		}
	}
	return append(dst, '}')
}
