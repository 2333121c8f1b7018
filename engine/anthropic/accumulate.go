package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/internal/layout"
	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"
)

// block accumulates one content block, from a whole body or from a
// content_block_start and its deltas (SPEC §5): texts concatenate, the
// signature keeps its latest non-empty value, tool input JSON
// concatenates.
type block struct {
	typ       string
	text      strings.Builder // text, or thinking
	signature string
	data      string
	id, name  string
	input     strings.Builder
	hasInput  bool            // input deltas arrived
	raw       json.RawMessage // a block of another type, kept whole
}

// newBlock starts a block from a whole block or a content_block_start's
// content_block.
func newBlock(v gjson.Result) *block {
	b := &block{typ: v.Get("type").Str}
	switch b.typ {
	case "text":
		b.text.WriteString(v.Get("text").Str)
	case "thinking":
		b.text.WriteString(v.Get("thinking").Str)
		b.signature = v.Get("signature").Str
	case "redacted_thinking":
		b.data = v.Get("data").Str
	case "tool_use":
		b.id, b.name = v.Get("id").Str, v.Get("name").Str
		if in := v.Get("input"); in.Exists() {
			b.input.WriteString(in.Raw)
		}
	default:
		b.raw = json.RawMessage(v.Raw)
	}
	return b
}

// delta applies one content_block_delta's delta, read in one pass.
func (b *block) delta(d gjson.Result) error {
	var typ string
	values := map[string]string{}
	d.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "type":
			typ = v.Str
		case "text", "thinking", "signature", "partial_json":
			values[k.Str] = v.Str
		}
		return true
	})
	switch typ {
	case "text_delta":
		return b.apply(typ, values["text"])
	case "thinking_delta":
		return b.apply(typ, values["thinking"])
	case "signature_delta":
		return b.apply(typ, values["signature"])
	case "input_json_delta":
		return b.apply(typ, values["partial_json"])
	}
	if b.raw != nil && typ == b.typ+"_delta" {
		return b.rawDelta(d)
	}
	return nil
}

// rawDelta applies a delta to a block of another type, kept whole: a
// "<type>_delta" carries the block's own string fields in pieces, each
// appended to the field of the same name (a null or absent start value
// counts as ""). Anthropic's compaction block streams this way — it
// starts as {"type":"compaction","content":null} and its summary (and
// encrypted_content) arrive in compaction_delta events — and the block
// must go back whole on the next turn
// (https://platform.claude.com/docs/en/build-with-claude/compaction), so
// dropping its deltas would store an empty summary. A delta value that is
// not a string is refused rather than guessed at.
func (b *block) rawDelta(d gjson.Result) error {
	var err error
	d.ForEach(func(k, v gjson.Result) bool {
		switch {
		case k.Str == "type" || v.Type == gjson.Null:
			return true
		case v.Type != gjson.String:
			err = fmt.Errorf("%s_delta: %s is a %s, want a string piece of the block's %s", b.typ, k.Str, v.Type, k.Str)
			return false
		}
		key := gjson.Escape(k.Str)
		old := gjson.GetBytes(b.raw, key)
		if old.Exists() && old.Type != gjson.String && old.Type != gjson.Null {
			err = fmt.Errorf("%s_delta: %s is a string piece, but the block's %s is a %s", b.typ, k.Str, k.Str, old.Type)
			return false
		}
		out, serr := sjson.SetBytes(b.raw, key, old.Str+v.Str)
		if serr != nil {
			err = fmt.Errorf("%s_delta: %w", b.typ, serr)
			return false
		}
		b.raw = out
		return true
	})
	return err
}

// apply applies a delta of a known type with its string value.
func (b *block) apply(typ, value string) error {
	w, err := b.sink(typ)
	switch {
	case err != nil:
		return err
	case w != nil:
		w.WriteString(value)
	case typ == "signature_delta" && value != "":
		b.signature = value
	}
	return nil
}

// applyPiece is apply with a value matched by layout.
func (b *block) applyPiece(typ string, value layout.Piece) error {
	w, err := b.sink(typ)
	switch {
	case err != nil:
		return err
	case w != nil:
		value.WriteTo(w)
	case typ == "signature_delta" && !value.Empty():
		b.signature = value.String()
	}
	return nil
}

// sink checks that a delta of a known type fits the block and returns the
// text it appends to; a signature, which replaces, and a delta of an
// unknown type have none.
func (b *block) sink(typ string) (*strings.Builder, error) {
	switch typ {
	case "text_delta":
		if b.typ != "text" {
			return nil, fmt.Errorf("text_delta on a %s block", b.typ)
		}
		return &b.text, nil
	case "thinking_delta":
		if b.typ != "thinking" {
			return nil, fmt.Errorf("thinking_delta on a %s block", b.typ)
		}
		return &b.text, nil
	case "signature_delta":
		if b.typ != "thinking" {
			return nil, fmt.Errorf("signature_delta on a %s block", b.typ)
		}
	case "input_json_delta":
		if !b.hasInput {
			// The start block's "input" is a placeholder ({}) that the
			// deltas replace.
			b.input.Reset()
			b.hasInput = true
		}
		return &b.input, nil
	}
	return nil, nil
}

// encode writes the block in its canonical form: fixed keys in a fixed
// order, so a streamed and a whole capture store the same bytes.
func (b *block) encode() (json.RawMessage, error) {
	switch b.typ {
	case "text":
		return textBlock(b.text.String()), nil
	case "thinking":
		text := b.text.String()
		out := make([]byte, 0, len(text)+len(b.signature)+64)
		out = append(out, `{"type":"thinking","thinking":`...)
		out = engine.AppendQuoted(out, text)
		if b.signature != "" {
			out = append(out, `,"signature":`...)
			out = engine.AppendQuoted(out, b.signature)
		}
		return append(out, '}'), nil
	case "redacted_thinking":
		out := []byte(`{"type":"redacted_thinking","data":`)
		out = engine.AppendQuoted(out, b.data)
		return append(out, '}'), nil
	case "tool_use":
		input, err := b.compactInput()
		if err != nil {
			return nil, err
		}
		out := []byte(`{"type":"tool_use","id":`)
		out = engine.AppendQuoted(out, b.id)
		out = append(out, `,"name":`...)
		out = engine.AppendQuoted(out, b.name)
		out = append(out, `,"input":`...)
		out = append(out, input...)
		return append(out, '}'), nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b.raw); err != nil {
		return nil, fmt.Errorf("%s block: %w", b.typ, err)
	}
	out := buf.Bytes()
	if b.hasInput {
		input, err := b.compactInput()
		if err != nil {
			return nil, err
		}
		if out, err = sjson.SetRawBytes(out, "input", input); err != nil {
			return nil, fmt.Errorf("%s block: %w", b.typ, err)
		}
	}
	return out, nil
}

func (b *block) compactInput() ([]byte, error) {
	in := strings.TrimSpace(b.input.String())
	if in == "" {
		return []byte("{}"), nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(in)); err != nil {
		return nil, fmt.Errorf("%s block %s: input is not valid JSON: %w", b.typ, b.id, err)
	}
	return buf.Bytes(), nil
}

// turn builds the stored assistant message from the blocks in order: the
// native turn holds every block; the standard view has the text blocks
// joined with "\n" as content (null when the turn only calls tools), the
// tool_use blocks as tool calls, and the non-empty thinking texts joined
// with "\n\n" as reasoning_content.
func turn(blocks []*block) (engine.Message, error) {
	m := engine.Message{Role: "assistant", Native: &engine.NativeTurn{Dialect: engine.ModeAnthropic, Blocks: []json.RawMessage{}}}
	var texts, thoughts []string
	for i, b := range blocks {
		enc, err := b.encode()
		if err != nil {
			return engine.Message{}, fmt.Errorf("content.%d: %w", i, err)
		}
		m.Native.Blocks = append(m.Native.Blocks, enc)
		switch b.typ {
		case "text":
			texts = append(texts, b.text.String())
		case "thinking":
			if t := b.text.String(); t != "" {
				thoughts = append(thoughts, t)
			}
		case "tool_use":
			input, _ := b.compactInput()
			m.ToolCalls = append(m.ToolCalls, engine.ToolCall{
				ID: b.id, Type: "function",
				Function: engine.FunctionCall{Name: b.name, Arguments: string(input)},
			})
		}
	}
	engine.SetStandardView(&m, texts, thoughts)
	return m, nil
}
