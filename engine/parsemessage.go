package engine

import (
	"encoding/json"
	"strings"
)

// storedKeyOrder numbers the keys of the storage form, for [seen].
var storedKeyOrder = map[string]int{
	"role": 0, "content": 1, "name": 2, "tool_call_id": 3, "tool_calls": 4,
	"reasoning_content": 5, "reasoning": 6, "reasoning_details": 7, "extra_content": 8,
	"reasoning_opaque": 9, "reasoning_text": 10, "native": 11, "timestamp": 12,
}

// ParseMessage reads one message in its storage form (also a plain
// OpenAI-style message), as json.Unmarshal into a [Message] does, with
// the same errors, in one pass over b. Raw values are copies: b may be
// reused afterwards.
func ParseMessage(b []byte) (Message, error) {
	s := scanner{b: b}
	m, err := s.message()
	if err == nil {
		s.space()
		if s.i == len(b) {
			return m, nil
		}
	}
	m = Message{}
	if err := json.Unmarshal(b, &m); err != nil {
		return Message{}, err
	}
	return m, nil
}

// message reads one message object, or gives up with errSlow.
func (s *scanner) message() (Message, error) {
	var m Message
	var keys seen
	err := s.object(func(k string) error {
		n, stored := storedKeyOrder[k]
		if !stored {
			return s.extra(&m, k)
		}
		if !keys.add(n) {
			return errSlow
		}
		var err error
		switch k {
		case "role":
			m.Role, err = s.plainStr()
		case "content":
			m.Content, err = s.rawCopy()
		case "name":
			m.Name, err = s.plainStr()
		case "tool_call_id":
			m.ToolCallID, err = s.plainStr()
		case "timestamp":
			m.Timestamp, err = s.plainStr()
		case "reasoning_content":
			m.ReasoningContent, err = s.optStr()
		case "reasoning":
			m.Reasoning, err = s.optStr()
		case "reasoning_opaque":
			m.ReasoningOpaque, err = s.optStr()
		case "reasoning_text":
			m.ReasoningText, err = s.optStr()
		case "reasoning_details":
			m.ReasoningDetails, err = s.details()
		case "extra_content":
			m.ExtraContent, err = s.rawCopy()
		case "tool_calls":
			err = s.decodeRaw(&m.ToolCalls)
		case "native":
			err = s.decodeRaw(&m.Native)
		}
		return err
	})
	return m, err
}

// extra keeps a key that is no field of the storage form in m.Extra. A
// key that matches a field but for case is for encoding/json, which
// matches fields by case folding.
func (s *scanner) extra(m *Message, k string) error {
	for known := range storedKeyOrder {
		if strings.EqualFold(k, known) {
			return errSlow
		}
	}
	if _, twice := m.Extra[k]; twice {
		return errSlow
	}
	v, err := s.rawCopy()
	if err != nil {
		return err
	}
	if m.Extra == nil {
		m.Extra = map[string]json.RawMessage{}
	}
	m.Extra[k] = v
	return nil
}

// plainStr consumes a string or null ("").
func (s *scanner) plainStr() (string, error) {
	if s.null() {
		return "", nil
	}
	return s.str()
}

// rawCopy consumes a value and returns a copy of its bytes; the bytes
// themselves when the document is kept for its quoted forms (it must not
// change then anyway).
func (s *scanner) rawCopy() (json.RawMessage, error) {
	v, err := s.raw()
	if err != nil || s.quoted != nil {
		return v, err
	}
	return append(json.RawMessage(nil), v...), nil
}

// details consumes reasoning_details: null, or an array of objects kept
// byte for byte. An item that is no object is for encoding/json, whose
// error names it.
func (s *scanner) details() ([]json.RawMessage, error) {
	if s.null() {
		return nil, nil
	}
	items := []json.RawMessage{}
	err := s.array(func() error {
		v, err := s.rawCopy()
		if err == nil && v[0] != '{' {
			err = errSlow
		}
		items = append(items, v)
		return err
	})
	return items, err
}

// decodeRaw consumes a small value (tool calls, a native turn) and
// decodes it with encoding/json; an error gives up.
func (s *scanner) decodeRaw(v any) error {
	raw, err := s.raw()
	if err != nil {
		return err
	}
	if json.Unmarshal(raw, v) != nil {
		return errSlow
	}
	return nil
}
