package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// A part is one part of a content: its JSON object without the closing
// brace, and the thoughtSignature to close it with.
type part struct {
	open []byte
	sig  string
}

func (p part) appendTo(dst []byte) []byte {
	dst = append(dst, p.open...)
	if p.sig != "" {
		if len(p.open) > 1 {
			dst = append(dst, ',')
		}
		dst = append(dst, `"thoughtSignature":`...)
		dst = engine.AppendQuoted(dst, p.sig)
	}
	return append(dst, '}')
}

// A content is one entry of contents: a role and its parts.
type content struct {
	role  string
	parts []part
}

func appendContents(dst []byte, cs []content) []byte {
	dst = append(dst, '[')
	for i, c := range cs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"role":`...)
		dst = engine.AppendQuoted(dst, c.role)
		dst = append(dst, `,"parts":[`...)
		for j, p := range c.parts {
			if j > 0 {
				dst = append(dst, ',')
			}
			dst = p.appendTo(dst)
		}
		dst = append(dst, `]}`...)
	}
	return append(dst, ']')
}

func textPart(s string) part {
	return part{open: engine.AppendQuoted([]byte(`{"text":`), s)}
}

// rawPart passes a part through, keeping its own thoughtSignature.
func rawPart(v gjson.Result) part {
	raw := strings.TrimSpace(v.Raw)
	return part{open: []byte(raw[:len(raw)-1])}
}

// buildContents turns a history into contents: user messages are user
// contents, tool results functionResponse parts of a user content,
// assistant messages model contents; empty contents are dropped and
// same-role neighbours merged.
func buildContents(hist []engine.Message) ([]content, error) {
	answered := engine.AnsweredToolCalls(hist)
	sent := map[string]string{} // call id -> function name, for the calls sent
	var out []content
	for i := range hist {
		m := &hist[i]
		var c content
		var err error
		switch m.Role {
		case "system":
			continue
		case "user":
			c.role = "user"
			c.parts, err = userParts(m.Content)
		case "tool":
			name, ok := sent[m.ToolCallID]
			if !ok {
				continue
			}
			if m.Name != "" {
				name = m.Name
			}
			c.role = "user"
			c.parts = []part{responsePart(m, name)}
		case "assistant":
			c.role = "model"
			c.parts, err = modelParts(m, answered, sent)
		default:
			err = fmt.Errorf("unsupported role %q", m.Role)
		}
		if err != nil {
			return nil, fmt.Errorf("gemini: messages.%d: %w", i, err)
		}
		if len(c.parts) == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].role == c.role {
			out[n-1].parts = append(out[n-1].parts, c.parts...)
			continue
		}
		out = append(out, c)
	}
	return out, nil
}

// userParts turns a content value into parts: a non-empty string is a
// text part; in an array, OpenAI-style {"type":"text"} parts become text
// parts and other elements (already Gemini parts) pass.
func userParts(c json.RawMessage) ([]part, error) {
	if engine.IsNullContent(c) {
		return nil, nil
	}
	v := gjson.ParseBytes(c)
	switch {
	case v.Type == gjson.String:
		if v.Str == "" {
			return nil, nil
		}
		return []part{textPart(v.Str)}, nil
	case v.IsArray():
		var out []part
		v.ForEach(func(_, e gjson.Result) bool {
			switch {
			case e.Get("type").Str == "text":
				out = append(out, textPart(e.Get("text").Str))
			case e.IsObject():
				out = append(out, rawPart(e))
			}
			return true
		})
		return out, nil
	}
	return nil, fmt.Errorf("content is neither a string nor an array")
}

// modelParts builds a model content: the text, then one functionCall part
// per answered tool call with the call's own signature, and the text-turn
// signature on the last part (a trailing empty text part when the last
// part already has a signature, or when there is no other part).
func modelParts(m *engine.Message, answered map[string]bool, sent map[string]string) ([]part, error) {
	var parts []part
	c := gjson.ParseBytes(m.Content)
	switch {
	case c.Type == gjson.String:
		if c.Str != "" {
			parts = append(parts, textPart(c.Str))
		}
	case c.IsArray():
		ps, err := userParts(m.Content)
		if err != nil {
			return nil, err
		}
		parts = append(parts, ps...)
	}
	for i, tc := range m.ToolCalls {
		if !answered[tc.ID] {
			continue
		}
		args, err := engine.ToolArgsObject(tc.Function.Arguments)
		if err != nil {
			return nil, fmt.Errorf("tool_calls.%d: %w", i, err)
		}
		b := []byte(`{"functionCall":{`)
		if !IsSyntheticID(tc.ID) {
			b = append(b, `"id":`...)
			b = engine.AppendQuoted(b, tc.ID)
			b = append(b, ',')
		}
		b = append(b, `"name":`...)
		b = engine.AppendQuoted(b, tc.Function.Name)
		b = append(b, `,"args":`...)
		b = append(b, args...)
		b = append(b, '}')
		parts = append(parts, part{open: b, sig: engine.ThoughtSignatureOf(tc.ExtraContent)})
		sent[tc.ID] = tc.Function.Name
	}
	if sig := m.NativeValues().ThoughtSignature; sig != "" {
		if n := len(parts); n > 0 && parts[n-1].sig == "" {
			parts[n-1].sig = sig
		} else {
			parts = append(parts, part{open: []byte(`{"text":""`), sig: sig})
		}
	}
	return parts, nil
}

// responsePart is the functionResponse part of a tool result. Gemini wants
// an object: a result that is a JSON object goes as it is, any other
// result as {"result": text}.
func responsePart(m *engine.Message, name string) part {
	b := []byte(`{"functionResponse":{`)
	if !IsSyntheticID(m.ToolCallID) {
		b = append(b, `"id":`...)
		b = engine.AppendQuoted(b, m.ToolCallID)
		b = append(b, ',')
	}
	b = append(b, `"name":`...)
	b = engine.AppendQuoted(b, name)
	b = append(b, `,"response":`...)
	b = append(b, responseObject(m.Content)...)
	return part{open: append(b, '}')}
}

func responseObject(c json.RawMessage) []byte {
	if engine.IsNullContent(c) {
		return []byte("{}")
	}
	v := gjson.ParseBytes(c)
	text := v.Str
	if v.IsArray() {
		var sb strings.Builder
		v.ForEach(func(_, e gjson.Result) bool {
			sb.WriteString(e.Get("text").Str)
			return true
		})
		text = sb.String()
	}
	if v.Type == gjson.String || v.IsArray() {
		if t := strings.TrimSpace(text); strings.HasPrefix(t, "{") && gjson.Valid(t) {
			var buf bytes.Buffer
			if json.Compact(&buf, []byte(t)) == nil {
				return buf.Bytes()
			}
		}
		return append(engine.AppendQuoted([]byte(`{"result":`), text), '}')
	}
	return append(append([]byte(`{"result":`), v.Raw...), '}')
}
