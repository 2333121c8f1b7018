package responses

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/internal/jsonscan"
	"github.com/tidwall/gjson"
)

// compact returns a copy of a valid JSON value without insignificant
// whitespace: keys, their order and every string byte for byte as written.
// A value that is compact already (every value of a stream, most bodies)
// is only copied.
func compact(raw string) ([]byte, error) {
	if jsonscan.IsCompact(raw) {
		return []byte(raw), nil
	}
	var buf bytes.Buffer
	buf.Grow(len(raw))
	if err := json.Compact(&buf, []byte(raw)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// turn builds the stored assistant message from a response's output items
// in order. The native turn holds every item as issued, with the dialect's
// issuer. The standard view has the output_text parts of the message items
// joined with "\n" as content (null when the turn only calls functions,
// "" when it has neither), each function_call as a tool call whose id is
// its call_id (what the tool result answers; the item id is kept as
// ResponseItemID), and the reasoning's readable text as reasoning_content:
// the summary texts, or the reasoning_text content of items without a
// summary, joined with "\n\n". Encrypted content stays in the native turn.
func (dl Dialect) turn(items [][]byte) (engine.Message, error) {
	m := engine.Message{Role: "assistant", Native: &engine.NativeTurn{Dialect: engine.ModeResponses, Blocks: make([]json.RawMessage, 0, len(items))}}
	if dl.Issuer != nil {
		is := *dl.Issuer
		m.Native.Issuer = &is
	}
	var texts, thoughts []string
	for i, it := range items {
		m.Native.Blocks = append(m.Native.Blocks, it)
		v := gjson.ParseBytes(it)
		switch v.Get("type").Str {
		case "reasoning":
			thoughts = append(thoughts, readable(v)...)
		case "message":
			texts = append(texts, outputTexts(v)...)
		case "function_call":
			tc, err := toolCall(v)
			if err != nil {
				return engine.Message{}, fmt.Errorf("output.%d: %w", i, err)
			}
			m.ToolCalls = append(m.ToolCalls, tc)
		}
	}
	engine.SetStandardView(&m, texts, thoughts)
	return m, nil
}

// readable returns the non-empty readable texts of a reasoning item: its
// summary_text parts, or when it has none its reasoning_text content.
func readable(item gjson.Result) []string {
	var out []string
	collect := func(list gjson.Result, typ string) {
		list.ForEach(func(_, part gjson.Result) bool {
			if t := part.Get("text").Str; part.Get("type").Str == typ && t != "" {
				out = append(out, t)
			}
			return true
		})
	}
	collect(item.Get("summary"), "summary_text")
	if len(out) == 0 {
		collect(item.Get("content"), "reasoning_text")
	}
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
