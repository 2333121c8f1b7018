package engine

import (
	"encoding/json"
	"fmt"
	"slices"
)

// A Message is one stored message of a session's history. Stored history
// keeps every carrier forever (SPEC §1); only wire copies are shaped.
//
// Absent and empty are different: a nil pointer or nil slice is an absent
// key, while a pointer to "" is a stored empty string.
type Message struct {
	// Role is system, user, assistant or tool.
	Role string
	// Content is the raw JSON value of content (string, array or null);
	// nil means absent.
	Content json.RawMessage
	// Name is the optional participant name.
	Name string
	// ToolCallID links a tool result to its call.
	ToolCallID string
	// ToolCalls are an assistant message's tool calls.
	ToolCalls []ToolCall
	// ReasoningContent is the RC carrier.
	ReasoningContent *string
	// Reasoning is the R carrier.
	Reasoning *string
	// ReasoningDetails is the RD carrier: raw JSON objects, kept byte for
	// byte, including private records (§3.3).
	ReasoningDetails []json.RawMessage
	// ExtraContent is the live message-level extra_content (the Gemini
	// text-turn signature); it is persisted inside the private record.
	ExtraContent json.RawMessage
	// ReasoningOpaque and ReasoningText are Copilot's live fields; they are
	// persisted inside the private record.
	ReasoningOpaque *string
	ReasoningText   *string
	// Native holds the ordered native blocks of a turn captured from a
	// non-chat dialect (Anthropic content blocks, Gemini parts); storage only
	// on chat routes.
	Native *NativeTurn
	// Timestamp is storage-only bookkeeping.
	Timestamp string
	// Extra keeps any other key of a stored message. Keys starting with "_"
	// are bookkeeping and never reach a wire.
	Extra map[string]json.RawMessage
}

// A NativeTurn is the ordered list of a turn's native blocks in its dialect.
type NativeTurn struct {
	Dialect APIMode           `json:"dialect"`
	Blocks  []json.RawMessage `json:"blocks"`
	// Issuer is the route that answered with these blocks, for dialects
	// whose opaque blocks only their issuer may see again (the Responses
	// dialect's encrypted reasoning items, SPEC §9.5); nil when unknown.
	Issuer *RouteKey `json:"issuer,omitempty"`
}

// A ToolCall is one tool call of an assistant message.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
	// ExtraContent carries a Gemini per-call thought signature
	// ({"google":{"thought_signature":…}}); only Gemini routes receive it.
	ExtraContent json.RawMessage `json:"extra_content,omitempty"`
	// CallID and ResponseItemID are Responses-API bookkeeping, storage only.
	CallID         string `json:"call_id,omitempty"`
	ResponseItemID string `json:"response_item_id,omitempty"`
}

// A FunctionCall is the function part of a tool call.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	// ThoughtSignature is Copilot's per-call signature; only the Copilot
	// route receives it.
	ThoughtSignature string `json:"thought_signature,omitempty"`
}

// Str returns a pointer to s, for the optional string fields of [Message].
func Str(s string) *string { return &s }

// storedMessage is the storage JSON form of a Message.
type storedMessage struct {
	Role             string            `json:"role"`
	Content          json.RawMessage   `json:"content,omitempty"`
	Name             string            `json:"name,omitempty"`
	ToolCallID       string            `json:"tool_call_id,omitempty"`
	ToolCalls        []ToolCall        `json:"tool_calls,omitempty"`
	ReasoningContent *string           `json:"reasoning_content,omitempty"`
	Reasoning        *string           `json:"reasoning,omitempty"`
	ReasoningDetails []json.RawMessage `json:"reasoning_details,omitempty"`
	ExtraContent     json.RawMessage   `json:"extra_content,omitempty"`
	ReasoningOpaque  *string           `json:"reasoning_opaque,omitempty"`
	ReasoningText    *string           `json:"reasoning_text,omitempty"`
	Native           *NativeTurn       `json:"native,omitempty"`
	Timestamp        string            `json:"timestamp,omitempty"`
}

var storedKeys = map[string]bool{
	"role": true, "content": true, "name": true, "tool_call_id": true, "tool_calls": true,
	"reasoning_content": true, "reasoning": true, "reasoning_details": true, "extra_content": true,
	"reasoning_opaque": true, "reasoning_text": true, "native": true, "timestamp": true,
}

// MarshalJSON writes the storage form: known keys in a fixed order, then
// Extra keys sorted. Raw JSON values (content, reasoning_details items,
// extra_content, native blocks) are written verbatim, byte for byte, and
// strings are never HTML-escaped, so a reloaded message shapes exactly like
// the live one. Call it directly: an outer json.Marshal re-escapes.
func (m Message) MarshalJSON() ([]byte, error) {
	b := append(make([]byte, 0, m.storedSizeHint()), `{"role":`...)
	b = AppendQuoted(b, m.Role)
	b = appendRawField(b, "content", m.Content)
	b = appendStringField(b, "name", m.Name)
	b = appendStringField(b, "tool_call_id", m.ToolCallID)
	if len(m.ToolCalls) > 0 {
		b = append(b, `,"tool_calls":[`...)
		for i, tc := range m.ToolCalls {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendToolCall(b, tc)
		}
		b = append(b, ']')
	}
	b = appendOptional(b, "reasoning_content", m.ReasoningContent)
	b = appendOptional(b, "reasoning", m.Reasoning)
	if len(m.ReasoningDetails) > 0 {
		b = append(b, `,"reasoning_details":`...)
		b = appendRaws(b, m.ReasoningDetails)
	}
	b = appendRawField(b, "extra_content", m.ExtraContent)
	b = appendOptional(b, "reasoning_opaque", m.ReasoningOpaque)
	b = appendOptional(b, "reasoning_text", m.ReasoningText)
	if m.Native != nil {
		b = append(b, `,"native":{"dialect":`...)
		b = AppendQuoted(b, string(m.Native.Dialect))
		b = append(b, `,"blocks":`...)
		b = appendRaws(b, m.Native.Blocks)
		if is := m.Native.Issuer; is != nil {
			b = append(b, `,"issuer":{"provider":`...)
			b = AppendQuoted(b, is.Provider)
			b = append(b, `,"host":`...)
			b = AppendQuoted(b, is.Host)
			b = append(b, `,"model":`...)
			b = AppendQuoted(b, is.Model)
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	b = appendStringField(b, "timestamp", m.Timestamp)
	if len(m.Extra) > 0 {
		keys := make([]string, 0, len(m.Extra))
		for k := range m.Extra {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			b = appendRawField(b, k, m.Extra[k])
		}
	}
	return append(b, '}'), nil
}

func appendToolCall(b []byte, tc ToolCall) []byte {
	b = append(b, `{"id":`...)
	b = AppendQuoted(b, tc.ID)
	b = append(b, `,"type":`...)
	b = AppendQuoted(b, tc.Type)
	b = append(b, `,"function":{"name":`...)
	b = AppendQuoted(b, tc.Function.Name)
	b = append(b, `,"arguments":`...)
	b = AppendQuoted(b, tc.Function.Arguments)
	b = appendStringField(b, "thought_signature", tc.Function.ThoughtSignature)
	b = append(b, '}')
	b = appendRawField(b, "extra_content", tc.ExtraContent)
	b = appendStringField(b, "call_id", tc.CallID)
	b = appendStringField(b, "response_item_id", tc.ResponseItemID)
	return append(b, '}')
}

func appendRaws(b []byte, items []json.RawMessage) []byte {
	b = append(b, '[')
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, it...)
	}
	return append(b, ']')
}

func appendRawField(b []byte, key string, v json.RawMessage) []byte {
	if v == nil {
		return b
	}
	b = append(b, ',')
	b = AppendQuoted(b, key)
	b = append(b, ':')
	return append(b, v...)
}

func appendStringField(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	b = append(b, ',')
	b = AppendQuoted(b, key)
	b = append(b, ':')
	return AppendQuoted(b, v)
}

// appendOptional writes a pointer field; a pointer to "" is a stored empty
// string and is written.
func appendOptional(b []byte, key string, v *string) []byte {
	if v == nil {
		return b
	}
	b = append(b, ',')
	b = AppendQuoted(b, key)
	b = append(b, ':')
	return AppendQuoted(b, *v)
}

// UnmarshalJSON reads the storage form (also a plain OpenAI-style message);
// unknown keys land in Extra. A JSON null content is kept as null.
func (m *Message) UnmarshalJSON(b []byte) error {
	s := scanner{b: b}
	if fast, err := s.message(); err == nil {
		if s.space(); s.i == len(b) {
			*m = fast
			return nil
		}
	}
	return m.unmarshalSlow(b)
}

// unmarshalSlow is UnmarshalJSON by encoding/json, for what the fast
// parser gives up on.
func (m *Message) unmarshalSlow(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if raw == nil {
		return fmt.Errorf("message is null")
	}
	var s storedMessage
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*m = Message{
		Role: s.Role, Name: s.Name, ToolCallID: s.ToolCallID, ToolCalls: s.ToolCalls,
		ReasoningContent: s.ReasoningContent, Reasoning: s.Reasoning, ReasoningDetails: s.ReasoningDetails,
		ExtraContent: s.ExtraContent, ReasoningOpaque: s.ReasoningOpaque, ReasoningText: s.ReasoningText,
		Native: s.Native, Timestamp: s.Timestamp,
	}
	if c, ok := raw["content"]; ok {
		m.Content = c
	}
	for k, v := range raw {
		if storedKeys[k] {
			continue
		}
		if m.Extra == nil {
			m.Extra = map[string]json.RawMessage{}
		}
		m.Extra[k] = v
	}
	for i, item := range m.ReasoningDetails {
		if len(item) == 0 || item[0] != '{' {
			return fmt.Errorf("reasoning_details.%d: item is not a JSON object", i)
		}
	}
	return nil
}

// HasToolCalls reports whether the message carries at least one tool call.
func (m Message) HasToolCalls() bool { return len(m.ToolCalls) > 0 }

// Clone returns a deep copy of the message: no slice, map or pointer is
// shared with the original.
func (m Message) Clone() Message {
	c := m
	c.Content = cloneRaw(m.Content)
	c.ExtraContent = cloneRaw(m.ExtraContent)
	c.ReasoningContent = cloneStr(m.ReasoningContent)
	c.Reasoning = cloneStr(m.Reasoning)
	c.ReasoningOpaque = cloneStr(m.ReasoningOpaque)
	c.ReasoningText = cloneStr(m.ReasoningText)
	if m.ToolCalls != nil {
		c.ToolCalls = make([]ToolCall, len(m.ToolCalls))
		for i, tc := range m.ToolCalls {
			tc.ExtraContent = cloneRaw(tc.ExtraContent)
			c.ToolCalls[i] = tc
		}
	}
	c.ReasoningDetails = cloneRaws(m.ReasoningDetails)
	if m.Native != nil {
		c.Native = &NativeTurn{Dialect: m.Native.Dialect, Blocks: cloneRaws(m.Native.Blocks)}
		if m.Native.Issuer != nil {
			is := *m.Native.Issuer
			c.Native.Issuer = &is
		}
	}
	if m.Extra != nil {
		c.Extra = make(map[string]json.RawMessage, len(m.Extra))
		for k, v := range m.Extra {
			c.Extra[k] = cloneRaw(v)
		}
	}
	return c
}

func cloneStr(p *string) *string {
	if p == nil {
		return nil
	}
	s := *p
	return &s
}

func cloneRaw(b json.RawMessage) json.RawMessage {
	if b == nil {
		return nil
	}
	return append(json.RawMessage{}, b...)
}

func cloneRaws(in []json.RawMessage) []json.RawMessage {
	if in == nil {
		return nil
	}
	out := make([]json.RawMessage, len(in))
	for i, b := range in {
		out[i] = cloneRaw(b)
	}
	return out
}
