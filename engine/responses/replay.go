package responses

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// plan is what the route lets the input carry.
type plan struct {
	policy engine.ResponsesPolicy
	// route is the key of the route the request goes to, with the model
	// the request names.
	route engine.RouteKey
	// rejected and sealed are the session's fingerprints of refused
	// signatures and encrypted contents (sorted).
	rejected, sealed []string
}

// input builds the input items of a history: system messages leave (they
// go to instructions), user and developer messages become message items, tool
// results function_call_output items (only for calls that were sent), and
// each assistant message the items the plan allows.
func (p plan) input(hist []engine.Message) ([][]byte, error) {
	answered := engine.AnsweredToolCalls(hist)
	sent := map[string]bool{}
	var out [][]byte
	for i := range hist {
		m := &hist[i]
		switch m.Role {
		case "system":
		case "user", "developer":
			it, ok, err := userItem(m.Role, m.Content)
			if err != nil {
				return nil, fmt.Errorf("responses: messages.%d: %w", i, err)
			}
			if ok {
				out = append(out, it)
			}
		case "tool":
			if sent[m.ToolCallID] {
				out = append(out, toolOutputItem(m))
			}
		case "assistant":
			items, err := p.assistantItems(m, answered, sent)
			if err != nil {
				return nil, fmt.Errorf("responses: messages.%d: %w", i, err)
			}
			out = append(out, items...)
		default:
			return nil, fmt.Errorf("responses: messages.%d: unsupported role %q", i, m.Role)
		}
	}
	return out, nil
}

// userItem is the message item of a user (or developer) message's
// content: a string as it is stored, an array with chat-style text parts
// as input_text parts (other parts pass as they are). Empty content gives
// no item.
func userItem(role string, c json.RawMessage) ([]byte, bool, error) {
	if engine.IsNullContent(c) {
		return nil, false, nil
	}
	v := gjson.ParseBytes(c)
	b := append(engine.AppendQuoted([]byte(`{"role":`), role), `,"content":`...)
	switch {
	case v.Type == gjson.String:
		if v.Str == "" {
			return nil, false, nil
		}
		b = append(b, v.Raw...)
	case v.IsArray():
		b = append(b, '[')
		n := 0
		v.ForEach(func(_, part gjson.Result) bool {
			if n > 0 {
				b = append(b, ',')
			}
			n++
			if part.Get("type").Str == "text" {
				b = append(b, `{"type":"input_text","text":`...)
				b = engine.AppendQuoted(b, part.Get("text").Str)
				b = append(b, '}')
			} else {
				b = append(b, part.Raw...)
			}
			return true
		})
		if n == 0 {
			return nil, false, nil
		}
		b = append(b, ']')
	default:
		return nil, false, fmt.Errorf("content is neither a string nor an array")
	}
	return append(b, '}'), true, nil
}

// toolOutputItem is the function_call_output item of a tool result: its text
// (a string content, or the text parts of an array) as output.
func toolOutputItem(m *engine.Message) []byte {
	b := []byte(`{"type":"function_call_output","call_id":`)
	b = engine.AppendQuoted(b, m.ToolCallID)
	b = append(b, `,"output":`...)
	b = engine.AppendQuoted(b, contentText(m.Content))
	return append(b, '}')
}

// contentText returns the text of a content value: a string, the
// concatenated "text" fields of an array of parts, or the raw JSON of any
// other value ("" for null).
func contentText(c json.RawMessage) string {
	if engine.IsNullContent(c) {
		return ""
	}
	v := gjson.ParseBytes(c)
	switch {
	case v.Type == gjson.String:
		return v.Str
	case v.IsArray():
		var b strings.Builder
		v.ForEach(func(_, part gjson.Result) bool {
			if t := part.Get("text"); t.Type == gjson.String {
				b.WriteString(t.Str)
			}
			return true
		})
		return b.String()
	}
	return v.Raw
}

// assistantItems returns the input items of one assistant message: its
// stored output items when they are this route family's own and still
// describe the turn, else items built from the standard view, which never
// hold reasoning.
func (p plan) assistantItems(m *engine.Message, answered, sent map[string]bool) ([][]byte, error) {
	if isNative(m) && m.Native.Issuer != nil && p.policy.SameIssuer(*m.Native.Issuer, p.route) {
		return p.nativeItems(m.Native.Blocks, answered, sent)
	}
	var out [][]byte
	if text := contentText(m.Content); text != "" {
		b := []byte(`{"role":"assistant","content":`)
		b = engine.AppendQuoted(b, text)
		out = append(out, append(b, '}'))
	}
	for _, tc := range m.ToolCalls {
		if !answered[tc.ID] {
			continue
		}
		b := []byte(`{"type":"function_call","call_id":`)
		b = engine.AppendQuoted(b, tc.ID)
		b = append(b, `,"name":`...)
		b = engine.AppendQuoted(b, tc.Function.Name)
		b = append(b, `,"arguments":`...)
		b = engine.AppendQuoted(b, tc.Function.Arguments)
		out = append(out, append(b, '}'))
		sent[tc.ID] = true
	}
	return out, nil
}

// nativeItems replays a turn's stored output items in their order, each
// byte for byte as it was issued. A reasoning item goes only when it holds
// what the service reads back (encrypted content, a signature or its
// content), none of it recorded as refused, and the item that followed it
// in the output goes too: the service refuses a reasoning item without its
// following item. A function_call goes only when the history answers it.
// Once a reasoning item of the turn is left out, the items after it lose
// their "id": the service refuses an item that names its id without the
// reasoning item it came with, and an item without an id stands alone.
// Every replayed item loses its "status" ("completed"): it describes the
// output, not the input, and no recording shows a service taking it back —
// the recorded clients (pydantic-ai against OpenAI and DeepSeek
// /responses) replay items without it and are answered 200 — so the
// engine sends what was recorded accepted. A message's output text parts
// lose their "logprobs" too ([withoutLogprobs]). Only those keys go; the
// rest of the item, its opaque fields included, stays byte for byte.
func (p plan) nativeItems(blocks []json.RawMessage, answered, sent map[string]bool) ([][]byte, error) {
	keep := make([]bool, len(blocks))
	types := make([]string, len(blocks))
	for i := len(blocks) - 1; i >= 0; i-- {
		v := gjson.ParseBytes(blocks[i])
		types[i] = v.Get("type").Str
		switch types[i] {
		case "reasoning":
			keep[i] = i+1 < len(blocks) && keep[i+1] && p.replayable(v)
		case "function_call":
			keep[i] = answered[v.Get("call_id").Str]
		default:
			keep[i] = true
		}
	}
	var out [][]byte
	detached := false
	for i, b := range blocks {
		if !keep[i] {
			detached = detached || types[i] == "reasoning"
			continue
		}
		if detached && types[i] != "reasoning" && gjson.GetBytes(b, "id").Exists() {
			var err error
			if b, err = sjson.DeleteBytes(b, "id"); err != nil {
				return nil, fmt.Errorf("native item %d: %w", i, err)
			}
		}
		if gjson.GetBytes(b, "status").Exists() {
			var err error
			if b, err = sjson.DeleteBytes(b, "status"); err != nil {
				return nil, fmt.Errorf("native item %d: %w", i, err)
			}
		}
		if types[i] == "message" {
			var err error
			if b, err = withoutLogprobs(b); err != nil {
				return nil, fmt.Errorf("native item %d: %w", i, err)
			}
		}
		if types[i] == "function_call" {
			sent[gjson.GetBytes(b, "call_id").Str] = true
		}
		out = append(out, b)
	}
	return out, nil
}

// withoutLogprobs removes "logprobs" from a message item's content parts.
// The key holds the token probabilities of an answer already given (filled
// only when the request asked for include message.output_text.logprobs,
// else []): output the model never reads back, which the recorded clients
// leave out of the output_text parts they replay (docs/decisions.md).
func withoutLogprobs(item []byte) ([]byte, error) {
	n := len(gjson.GetBytes(item, "content").Array())
	for j := 0; j < n; j++ {
		path := fmt.Sprintf("content.%d.logprobs", j)
		if !gjson.GetBytes(item, path).Exists() {
			continue
		}
		var err error
		if item, err = sjson.DeleteBytes(item, path); err != nil {
			return nil, err
		}
	}
	return item, nil
}

// replayable reports whether a stored reasoning item carries what a
// stateless request must send back — a non-empty encrypted_content or
// signature, or readable content — and none of it is recorded as refused.
func (p plan) replayable(item gjson.Result) bool {
	enc, sig := item.Get("encrypted_content").Str, item.Get("signature").Str
	if enc != "" && engine.HasFingerprint(p.sealed, engine.Fingerprint(FieldEncrypted, enc)) {
		return false
	}
	if sig != "" && engine.HasFingerprint(p.rejected, engine.Fingerprint(FieldSignature, sig)) {
		return false
	}
	c := item.Get("content")
	return enc != "" || sig != "" || c.IsArray() && len(c.Array()) > 0
}

// Fingerprint types of the reasoning item fields a service may refuse.
const (
	FieldEncrypted = "reasoning.encrypted_content"
	FieldSignature = "reasoning.signature"
)

// isNative reports whether a message holds a Responses turn whose items
// still describe its visible text and tool calls.
func isNative(m *engine.Message) bool {
	return m.Native != nil && m.Native.Dialect == engine.ModeResponses && consistent(m)
}

// consistent reports whether a message's stored items still describe its
// visible turn (engine.TurnMatches): the output_text parts of its message
// items, and the call ids and names of its function_call items.
func consistent(m *engine.Message) bool {
	var texts []string
	var calls []engine.ToolCall
	for _, b := range m.Native.Blocks {
		v := gjson.ParseBytes(b)
		switch v.Get("type").Str {
		case "message":
			for _, t := range partTexts(v.Get("content"), "output_text") {
				texts = append(texts, t.Str)
			}
		case "function_call":
			calls = append(calls, engine.ToolCall{ID: v.Get("call_id").Str, Function: engine.FunctionCall{Name: v.Get("name").Str}})
		}
	}
	return engine.TurnMatches(m, texts, calls)
}
