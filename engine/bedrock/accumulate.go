package bedrock

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// Kinds of content block.
const (
	kindText      = "text"
	kindReasoning = "reasoning"
	kindToolUse   = "toolUse"
	kindOther     = "other"
)

// block accumulates one content block (SPEC §5): text and reasoning text
// concatenate, the signature and the redacted blob keep their latest
// non-empty value, tool input JSON concatenates.
type block struct {
	index     int64
	kind      string
	text      strings.Builder // text, or reasoning text
	signature string
	redacted  string
	id, name  string
	input     strings.Builder
	raw       json.RawMessage
}

// setKind fixes the block's kind; a block is one member of the union.
func (b *block) setKind(k string) error {
	if b.kind != "" && b.kind != k {
		return fmt.Errorf("content block %d mixes %s and %s", b.index, b.kind, k)
	}
	b.kind = k
	return nil
}

// whole reads a content block of a whole Converse response.
func (b *block) whole(v gjson.Result) error {
	switch {
	case v.Get("reasoningContent").Exists():
		if err := b.setKind(kindReasoning); err != nil {
			return err
		}
		rc := v.Get("reasoningContent")
		b.text.WriteString(rc.Get("reasoningText.text").Str)
		b.signature = rc.Get("reasoningText.signature").Str
		b.redacted = rc.Get("redactedContent").Str
	case v.Get("toolUse").Exists():
		if err := b.setKind(kindToolUse); err != nil {
			return err
		}
		tu := v.Get("toolUse")
		b.id, b.name = tu.Get("toolUseId").Str, tu.Get("name").Str
		if in := tu.Get("input"); in.Exists() {
			b.input.WriteString(in.Raw)
		}
	case v.Get("text").Exists():
		if err := b.setKind(kindText); err != nil {
			return err
		}
		b.text.WriteString(v.Get("text").Str)
	default:
		b.kind, b.raw = kindOther, json.RawMessage(v.Raw)
	}
	return nil
}

// start applies a ContentBlockStart (a tool use's id and name).
func (b *block) start(v gjson.Result) error {
	if tu := v.Get("toolUse"); tu.Exists() {
		if err := b.setKind(kindToolUse); err != nil {
			return err
		}
		b.id, b.name = tu.Get("toolUseId").Str, tu.Get("name").Str
	}
	return nil
}

// delta applies a ContentBlockDelta, read in one pass. Streamed reasoning
// is flat ({"text"}, {"signature"}, {"redactedContent"}), unlike the whole
// body.
func (b *block) delta(d gjson.Result) error {
	var err error
	d.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "reasoningContent":
			if err = b.setKind(kindReasoning); err != nil {
				return false
			}
			v.ForEach(func(k, v gjson.Result) bool {
				switch k.Str {
				case "text":
					b.text.WriteString(v.Str)
				case "signature":
					if v.Str != "" {
						b.signature = v.Str
					}
				case "redactedContent":
					if v.Str != "" {
						b.redacted = v.Str
					}
				}
				return true
			})
		case "toolUse":
			if err = b.setKind(kindToolUse); err != nil {
				return false
			}
			b.input.WriteString(v.Get("input").Str)
		case "text":
			if err = b.setKind(kindText); err != nil {
				return false
			}
			b.text.WriteString(v.Str)
		}
		return true
	})
	return err
}

func (b *block) compactInput() ([]byte, error) {
	in := strings.TrimSpace(b.input.String())
	if in == "" {
		return []byte("{}"), nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(in)); err != nil {
		return nil, fmt.Errorf("content block %d: toolUse %s input is not valid JSON: %w", b.index, b.id, err)
	}
	return buf.Bytes(), nil
}

// turn builds the stored assistant message from the blocks in index order:
// native Converse blocks (each reasoning member its own block), and the
// standard view with the reasoning as Anthropic-format reasoning_details
// items in block order.
func turn(blocks []*block) (engine.Message, error) {
	slices.SortStableFunc(blocks, func(a, b *block) int {
		switch {
		case a.index < b.index:
			return -1
		case a.index > b.index:
			return 1
		}
		return 0
	})
	m := engine.Message{Role: "assistant", Native: &engine.NativeTurn{Dialect: engine.ModeBedrockConverse, Blocks: []json.RawMessage{}}}
	var texts, thoughts []string
	for _, b := range blocks {
		switch b.kind {
		case kindText:
			texts = append(texts, b.text.String())
			m.Native.Blocks = append(m.Native.Blocks, textBlock(b.text.String()))
		case kindReasoning:
			text := b.text.String()
			if text != "" || b.signature != "" {
				// Quoted once for the block and its stored item.
				qtext, qsig := quoted(text), quoted(b.signature)
				m.Native.Blocks = append(m.Native.Blocks, quotedReasoningBlock(qtext, qsig))
				m.ReasoningDetails = append(m.ReasoningDetails, wrapQuoted(`{"type":"thinking","thinking":`, qtext, qsig, `}`))
				if text != "" {
					thoughts = append(thoughts, text)
				}
			}
			if b.redacted != "" {
				m.Native.Blocks = append(m.Native.Blocks, redactedBlock(b.redacted))
				m.ReasoningDetails = append(m.ReasoningDetails, redactedItem(b.redacted))
			}
		case kindToolUse:
			input, err := b.compactInput()
			if err != nil {
				return engine.Message{}, err
			}
			m.Native.Blocks = append(m.Native.Blocks, toolUseBlock(b.id, b.name, input))
			m.ToolCalls = append(m.ToolCalls, engine.ToolCall{
				ID: b.id, Type: "function",
				Function: engine.FunctionCall{Name: b.name, Arguments: string(input)},
			})
		case kindOther:
			var buf bytes.Buffer
			if err := json.Compact(&buf, b.raw); err != nil {
				return engine.Message{}, fmt.Errorf("content block %d: %w", b.index, err)
			}
			m.Native.Blocks = append(m.Native.Blocks, buf.Bytes())
		}
	}
	switch {
	case len(texts) > 0:
		text := strings.Join(texts, "\n")
		m.Content = json.RawMessage(engine.AppendQuoted(make([]byte, 0, len(text)+16), text))
	case len(m.ToolCalls) > 0:
		m.Content = json.RawMessage("null")
	default:
		m.Content = json.RawMessage(`""`)
	}
	if len(thoughts) > 0 {
		m.ReasoningContent = engine.Str(strings.Join(thoughts, "\n\n"))
	}
	return m, nil
}

// redactedItem is the Anthropic-format item of a redactedContent block.
func redactedItem(data string) json.RawMessage {
	b := []byte(`{"type":"redacted_thinking","data":`)
	b = engine.AppendQuoted(b, data)
	return append(b, '}')
}
