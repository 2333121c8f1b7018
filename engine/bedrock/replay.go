package bedrock

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// plan is what the model's policy and the session's config let the wire
// copy carry.
type plan struct {
	replay engine.ReasoningReplay
	// sealed and rejected are sorted fingerprints of blobs sealed to another
	// region or model and of signed blocks a provider refused.
	sealed, rejected []string
}

// messages builds the Converse messages of a history: system messages
// leave (they go to the system key), tool results become toolResult blocks
// of a user message, assistant messages get the blocks the plan allows,
// and then empty messages are dropped and same-role neighbours merged.
func (p plan) messages(hist []engine.Message) ([]wireMsg, error) {
	answered := engine.AnsweredToolCalls(hist)
	sent := map[string]bool{}
	var out []wireMsg
	for i := range hist {
		m := &hist[i]
		var w wireMsg
		var err error
		switch m.Role {
		case "system":
			continue
		case "user":
			w.role = "user"
			w.blocks, err = userBlocks(m.Content)
		case "tool":
			if !sent[m.ToolCallID] {
				continue
			}
			w.role = "user"
			w.blocks, err = toolResult(m)
		case "assistant":
			w.role = "assistant"
			w.blocks, err = p.assistantBlocks(m, answered)
			for _, b := range w.blocks {
				if id := gjson.GetBytes(b, "toolUse.toolUseId"); id.Exists() {
					sent[id.Str] = true
				}
			}
		default:
			err = fmt.Errorf("unsupported role %q", m.Role)
		}
		if err != nil {
			return nil, fmt.Errorf("bedrock: messages.%d: %w", i, err)
		}
		out = append(out, w)
	}
	return mergeRoles(out), nil
}

// mergeRoles drops messages without blocks and merges same-role
// neighbours, keeping block order.
func mergeRoles(in []wireMsg) []wireMsg {
	var out []wireMsg
	for _, m := range in {
		if len(m.blocks) == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].role == m.role {
			out[n-1].blocks = append(out[n-1].blocks, m.blocks...)
			continue
		}
		out = append(out, wireMsg{role: m.role, blocks: append([]json.RawMessage(nil), m.blocks...)})
	}
	return out
}

// userBlocks turns a user content value into Converse blocks: a non-empty
// string is a text block; in an array, OpenAI-style {"type":"text"} parts
// become text blocks and other elements (already Converse blocks) pass.
func userBlocks(c json.RawMessage) ([]json.RawMessage, error) {
	if engine.IsNullContent(c) {
		return nil, nil
	}
	v := gjson.ParseBytes(c)
	switch {
	case v.Type == gjson.String:
		if v.Str == "" {
			return nil, nil
		}
		return []json.RawMessage{textBlock(v.Str)}, nil
	case v.IsArray():
		var out []json.RawMessage
		v.ForEach(func(_, e gjson.Result) bool {
			if e.Get("type").Str == "text" {
				out = append(out, textBlock(e.Get("text").Str))
			} else {
				out = append(out, json.RawMessage(e.Raw))
			}
			return true
		})
		return out, nil
	}
	return nil, fmt.Errorf("content is neither a string nor an array")
}

func toolResult(m *engine.Message) ([]json.RawMessage, error) {
	content, err := userBlocks(m.Content)
	if err != nil {
		return nil, err
	}
	if len(content) == 0 {
		content = []json.RawMessage{textBlock("")}
	}
	b := []byte(`{"toolResult":{"toolUseId":`)
	b = engine.AppendQuoted(b, m.ToolCallID)
	b = append(b, `,"content":[`...)
	for i, c := range content {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, c...)
	}
	return []json.RawMessage{append(b, `]}}`...)}, nil
}

// textBlockOpen opens a text block: textBlockOpen, the quoted text, "}".
const textBlockOpen = `{"text":`

func textBlock(s string) json.RawMessage {
	b := make([]byte, 0, len(s)+16)
	b = append(b, textBlockOpen...)
	b = engine.AppendQuoted(b, s)
	return append(b, '}')
}

// A reasoning text block is
// {"reasoningContent":{"reasoningText":{"text":T[,"signature":S]}}}, the
// signature left out when it is empty.
const (
	reasoningBlockOpen  = `{"reasoningContent":{"reasoningText":{"text":`
	reasoningBlockClose = `}}}`
	sigKey              = `,"signature":`
)

// reasoningTextBlock is {"reasoningContent":{"reasoningText":{"text","signature"?}}}.
func reasoningTextBlock(text, sig string) json.RawMessage {
	b, _, _ := quotedReasoningBlock(text, sig)
	return b
}

// quotedReasoningBlock writes reasoningTextBlock in one allocation and
// also returns the quoted text and signature (`""` when absent) as slices
// of it, so a caller needing them quoted again copies instead of quoting.
func quotedReasoningBlock(text, sig string) (block json.RawMessage, qtext, qsig []byte) {
	b := make([]byte, 0, len(reasoningBlockOpen)+len(text)+len(sigKey)+len(sig)+len(reasoningBlockClose)+8)
	b = append(b, reasoningBlockOpen...)
	b = engine.AppendQuoted(b, text)
	textEnd := len(b)
	qsig = []byte(`""`)
	if sig != "" {
		b = engine.AppendQuoted(append(b, sigKey...), sig)
		qsig = b[textEnd+len(sigKey):]
	}
	b = append(b, reasoningBlockClose...)
	return b, b[len(reasoningBlockOpen):textEnd:textEnd], qsig[:len(qsig):len(qsig)]
}

// wrapQuoted joins open, the quoted text, a "signature" member if sig is
// not `""`, and close, in one allocation.
func wrapQuoted(open string, text, sig []byte, close string) json.RawMessage {
	b := make([]byte, 0, len(open)+len(text)+len(sigKey)+len(sig)+len(close))
	b = append(append(b, open...), text...)
	if len(sig) > 2 {
		b = append(append(b, sigKey...), sig...)
	}
	return append(b, close...)
}

// redactedBlock is {"reasoningContent":{"redactedContent":data}}; data is
// the base64 text of the blob as the JSON protocol carries it.
func redactedBlock(data string) json.RawMessage {
	b := []byte(`{"reasoningContent":{"redactedContent":`)
	b = engine.AppendQuoted(b, data)
	return append(b, `}}`...)
}

func toolUseBlock(id, name string, input []byte) json.RawMessage {
	b := []byte(`{"toolUse":{"toolUseId":`)
	b = engine.AppendQuoted(b, id)
	b = append(b, `,"name":`...)
	b = engine.AppendQuoted(b, name)
	b = append(b, `,"input":`...)
	b = append(b, input...)
	return append(b, `}}`...)
}

// assistantBlocks returns the wire blocks of one assistant message.
func (p plan) assistantBlocks(m *engine.Message, answered map[string]bool) ([]json.RawMessage, error) {
	src, err := sourceBlocks(m)
	if err != nil {
		return nil, err
	}
	var out []json.RawMessage
	readable := false
	for _, b := range src {
		v := gjson.ParseBytes(b)
		switch {
		case v.Get("reasoningContent.reasoningText").Exists():
			text := v.Get("reasoningContent.reasoningText.text").Str
			sig := v.Get("reasoningContent.reasoningText.signature").Str
			switch p.replay {
			case engine.ReplaySigned:
				if sig == "" || p.has(p.rejected, engine.Fingerprint("thinking", sig)) {
					continue
				}
				out = append(out, b)
			case engine.ReplayUnsigned:
				if strings.TrimSpace(text) == "" {
					continue
				}
				out = append(out, reasoningTextBlock(text, ""))
				readable = true
			}
		case v.Get("reasoningContent.redactedContent").Exists():
			data := v.Get("reasoningContent.redactedContent").Str
			fp := engine.Fingerprint("redacted_thinking", data)
			if p.replay == engine.ReplayStripped || data == "" || p.has(p.sealed, fp) || p.has(p.rejected, fp) {
				continue
			}
			out = append(out, b)
		case v.Get("toolUse").Exists():
			if !answered[v.Get("toolUse.toolUseId").Str] {
				continue
			}
			out = append(out, b)
		case v.Get("text").Exists():
			if v.Get("text").Str == "" {
				continue
			}
			out = append(out, b)
		default:
			out = append(out, b)
		}
	}
	if p.replay == engine.ReplayUnsigned && !readable && !isNative(m) && !engine.HasThinkingItems(m) {
		if t := engine.StandardThinking(m); t != "" {
			out = append([]json.RawMessage{reasoningTextBlock(t, "")}, out...)
		}
	}
	return out, nil
}

func (p plan) has(set []string, fp string) bool {
	return fp != "" && len(set) > 0 && engine.HasFingerprint(set, fp)
}

func isNative(m *engine.Message) bool {
	return m.Native != nil && m.Native.Dialect == engine.ModeBedrockConverse && consistent(m)
}

// sourceBlocks returns the Converse blocks an assistant message replays
// from: its native blocks when they still match its visible text and tool
// calls, else blocks built from the standard view (Anthropic-format
// reasoning_details items, the text, the tool calls).
func sourceBlocks(m *engine.Message) ([]json.RawMessage, error) {
	if isNative(m) {
		return m.Native.Blocks, nil
	}
	var out []json.RawMessage
	for _, item := range m.ReasoningDetails {
		v := gjson.ParseBytes(item)
		switch v.Get("type").Str {
		case "thinking":
			out = append(out, reasoningTextBlock(v.Get("thinking").Str, v.Get("signature").Str))
		case "redacted_thinking":
			out = append(out, redactedBlock(v.Get("data").Str))
		}
	}
	if c := gjson.ParseBytes(m.Content); c.Type == gjson.String && c.Str != "" {
		out = append(out, textBlock(c.Str))
	} else if c.IsArray() {
		bs, err := userBlocks(m.Content)
		if err != nil {
			return nil, err
		}
		out = append(out, bs...)
	}
	for i, tc := range m.ToolCalls {
		input, err := engine.ToolArgsObject(tc.Function.Arguments)
		if err != nil {
			return nil, fmt.Errorf("tool_calls.%d: %w", i, err)
		}
		out = append(out, toolUseBlock(tc.ID, tc.Function.Name, input))
	}
	return out, nil
}

// consistent reports whether a message's native blocks still describe its
// visible turn (engine.TurnMatches): their text blocks, and their toolUse
// ids and names.
func consistent(m *engine.Message) bool {
	var texts []string
	var calls []engine.ToolCall
	for _, b := range m.Native.Blocks {
		v := gjson.ParseBytes(b)
		switch {
		case v.Get("text").Exists():
			texts = append(texts, v.Get("text").Str)
		case v.Get("toolUse").Exists():
			calls = append(calls, engine.ToolCall{ID: v.Get("toolUse.toolUseId").Str, Function: engine.FunctionCall{Name: v.Get("toolUse.name").Str}})
		}
	}
	return engine.TurnMatches(m, texts, calls)
}
