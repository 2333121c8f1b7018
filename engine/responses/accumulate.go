package responses

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/internal/jsonscan"
	"github.com/tidwall/gjson"
)

// compact returns a valid JSON value without insignificant whitespace:
// keys, their order and every string byte for byte as written. A value
// that is compact already (every value of a stream, most bodies) is
// returned as it is.
func compact(raw string) (string, error) {
	if jsonscan.IsCompact(raw) {
		return raw, nil
	}
	var buf bytes.Buffer
	buf.Grow(len(raw))
	if err := json.Compact(&buf, []byte(raw)); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// turn builds the stored assistant message from a response's output items
// in order. The native turn holds every item as issued, with the dialect's
// issuer. The standard view has the output_text parts of the message items
// joined with "\n" as content (one text as the JSON string it was issued
// in; null when the turn only calls functions, "" when it has neither),
// each function_call as a tool call whose id is
// its call_id (what the tool result answers; the item id is kept as
// ResponseItemID), and the reasoning's readable text as reasoning_content:
// the summary texts, or the reasoning_text content of items without a
// summary, joined with "\n\n". Encrypted content stays in the native turn.
func (dl Dialect) turn(items []string) (engine.Message, error) {
	m := engine.Message{Role: "assistant", Native: &engine.NativeTurn{Dialect: engine.ModeResponses, Blocks: make([]json.RawMessage, 0, len(items))}}
	if dl.Issuer != nil {
		is := *dl.Issuer
		m.Native.Issuer = &is
	}
	var texts []gjson.Result
	var thoughts []string
	for i, it := range items {
		m.Native.Blocks = append(m.Native.Blocks, json.RawMessage(it))
		v := gjson.Parse(it)
		switch v.Get("type").Str {
		case "reasoning":
			for _, t := range readable(v) {
				thoughts = append(thoughts, t.Str)
			}
		case "message":
			texts = append(texts, partTexts(v.Get("content"), "output_text")...)
		case "function_call":
			tc, err := toolCall(v)
			if err != nil {
				return engine.Message{}, fmt.Errorf("output.%d: %w", i, err)
			}
			m.ToolCalls = append(m.ToolCalls, tc)
		}
	}
	if len(texts) == 1 {
		// One text: its JSON string as issued is the content.
		engine.SetStandardView(&m, nil, thoughts)
		m.Content = json.RawMessage(texts[0].Raw)
		return m, nil
	}
	strs := make([]string, len(texts))
	for i, t := range texts {
		strs[i] = t.Str
	}
	engine.SetStandardView(&m, strs, thoughts)
	return m, nil
}

// readable returns the non-empty readable texts of a reasoning item: its
// summary_text parts, or when it has none its reasoning_text content.
func readable(item gjson.Result) []gjson.Result {
	if out := partTexts(item.Get("summary"), "summary_text"); len(out) > 0 {
		return out
	}
	return partTexts(item.Get("content"), "reasoning_text")
}

// partTexts returns the non-empty text values of the parts of type typ of
// a list of parts.
func partTexts(list gjson.Result, typ string) []gjson.Result {
	var out []gjson.Result
	list.ForEach(func(_, part gjson.Result) bool {
		if part.Get("type").Str == typ {
			if text := part.Get("text"); text.Type == gjson.String && len(text.Raw) > 2 {
				out = append(out, text)
			}
		}
		return true
	})
	return out
}

// toolCall reads a function_call item; call_id, name and arguments must be
// strings, and call_id must not be empty (a tool result names it).
func toolCall(v gjson.Result) (engine.ToolCall, error) {
	for _, k := range []string{"call_id", "name", "arguments"} {
		if f := v.Get(k); f.Type != gjson.String || k != "arguments" && f.Str == "" {
			return engine.ToolCall{}, fmt.Errorf("function_call %s: want a non-empty string, got %s", k, kind(f))
		}
	}
	id := v.Get("call_id").Str
	return engine.ToolCall{
		ID: id, Type: "function",
		Function: engine.FunctionCall{Name: v.Get("name").Str, Arguments: v.Get("arguments").Str},
		CallID:   id, ResponseItemID: v.Get("id").Str,
	}, nil
}
