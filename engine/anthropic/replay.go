package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// plan is what the route lets an assistant message's wire copy carry.
type plan struct {
	replay engine.ReasoningReplay
	// prior is true when earlier turns' thinking is replayed.
	prior bool
	// pad puts a " " thinking block on assistant messages without readable
	// thinking (must-echo Anthropic-compatible endpoints).
	pad bool
	// rejected are fingerprints of signed blocks to leave out (sorted).
	rejected []string
}

// Pad is the must-echo placeholder thinking text: one space, never "".
const Pad = " "

// messages builds the wire messages of a history: system messages leave
// (they go to the system key), consecutive user and tool messages merge
// into one user message, tool results become tool_result blocks, and each
// assistant message gets the blocks the plan allows. A message left without
// content is dropped.
func (p plan) messages(hist []engine.Message) ([]wireMsg, error) {
	loopAfter := engine.LastRealUser(hist)
	answered := engine.AnsweredToolCalls(hist)
	sent := map[string]bool{}
	var out []wireMsg
	var group []int // indexes of the pending user-side messages
	flush := func() error {
		if len(group) == 0 {
			return nil
		}
		m, ok, err := userMessage(hist, group, sent)
		group = group[:0]
		if err != nil || !ok {
			return err
		}
		out = append(out, m)
		return nil
	}
	for i := range hist {
		m := &hist[i]
		switch m.Role {
		case "system":
			continue
		case "user", "tool":
			group = append(group, i)
			continue
		}
		if err := flush(); err != nil {
			return nil, err
		}
		if m.Role != "assistant" {
			return nil, fmt.Errorf("anthropic: messages.%d: unsupported role %q", i, m.Role)
		}
		blocks, err := p.assistantBlocks(m, i > loopAfter, answered)
		if err != nil {
			return nil, fmt.Errorf("anthropic: messages.%d: %w", i, err)
		}
		for _, b := range blocks {
			if gjson.GetBytes(b, "type").Str == "tool_use" {
				sent[gjson.GetBytes(b, "id").Str] = true
			}
		}
		if len(blocks) > 0 {
			out = append(out, wireMsg{role: "assistant", blocks: blocks})
		}
	}
	return out, flush()
}

// userMessage merges a run of user and tool messages into one user
// message. A lone user message keeps its stored content; a tool result
// whose tool_use was not sent is dropped.
func userMessage(hist []engine.Message, group []int, sent map[string]bool) (wireMsg, bool, error) {
	if len(group) == 1 && hist[group[0]].Role == "user" {
		c := hist[group[0]].Content
		if isEmptyContent(c) {
			return wireMsg{}, false, nil
		}
		return wireMsg{role: "user", raw: c}, true, nil
	}
	var blocks []json.RawMessage
	for _, i := range group {
		m := &hist[i]
		if m.Role == "tool" {
			if !sent[m.ToolCallID] {
				continue
			}
			b := []byte(`{"type":"tool_result","tool_use_id":`)
			b = engine.AppendQuoted(b, m.ToolCallID)
			if !engine.IsNullContent(m.Content) {
				b = append(b, `,"content":`...)
				b = append(b, m.Content...)
			}
			blocks = append(blocks, append(b, '}'))
			continue
		}
		bs, err := contentBlocks(m.Content)
		if err != nil {
			return wireMsg{}, false, fmt.Errorf("anthropic: messages.%d: %w", i, err)
		}
		blocks = append(blocks, bs...)
	}
	if len(blocks) == 0 {
		return wireMsg{}, false, nil
	}
	return wireMsg{role: "user", blocks: blocks}, true, nil
}

// contentBlocks turns a content value into blocks: a non-empty string is a
// text block, an array gives its elements.
func contentBlocks(c json.RawMessage) ([]json.RawMessage, error) {
	if isEmptyContent(c) {
		return nil, nil
	}
	v := gjson.ParseBytes(c)
	switch {
	case v.Type == gjson.String:
		return []json.RawMessage{textBlock(v.Str)}, nil
	case v.IsArray():
		var out []json.RawMessage
		v.ForEach(func(_, e gjson.Result) bool {
			out = append(out, json.RawMessage(e.Raw))
			return true
		})
		return out, nil
	}
	return nil, fmt.Errorf("content is neither a string nor an array")
}

func isEmptyContent(c json.RawMessage) bool {
	return engine.IsNullContent(c) || string(bytes.TrimSpace(c)) == `""`
}

func textBlock(s string) json.RawMessage {
	b := make([]byte, 0, len(s)+32)
	b = append(b, `{"type":"text","text":`...)
	b = engine.AppendQuoted(b, s)
	return append(b, '}')
}

func thinkingBlock(text string) json.RawMessage {
	b := []byte(`{"type":"thinking","thinking":`)
	b = engine.AppendQuoted(b, text)
	return append(b, '}')
}

// assistantBlocks returns the wire blocks of one assistant message.
func (p plan) assistantBlocks(m *engine.Message, inLoop bool, answered map[string]bool) ([]json.RawMessage, error) {
	src, err := sourceBlocks(m)
	if err != nil {
		return nil, err
	}
	thinking := p.replay != engine.ReplayStripped && (inLoop || p.prior)
	var out []json.RawMessage
	readable := false
	for _, b := range src {
		v := gjson.ParseBytes(b)
		switch v.Get("type").Str {
		case "thinking":
			if !thinking {
				continue
			}
			text, sig := v.Get("thinking").Str, v.Get("signature").Str
			if p.replay == engine.ReplayUnsigned {
				if strings.TrimSpace(text) == "" {
					continue
				}
				out = append(out, thinkingBlock(text))
				readable = true
				continue
			}
			if sig == "" || p.isRejected(engine.Fingerprint("thinking", sig)) {
				continue
			}
			out = append(out, b)
			readable = readable || strings.TrimSpace(text) != ""
		case "redacted_thinking":
			data := v.Get("data").Str
			if !thinking || p.replay != engine.ReplaySigned || data == "" || p.isRejected(engine.Fingerprint("redacted_thinking", data)) {
				continue
			}
			out = append(out, b)
		case "tool_use":
			if !answered[v.Get("id").Str] {
				continue
			}
			out = append(out, b)
		case "text":
			if v.Get("text").Str == "" {
				continue
			}
			out = append(out, b)
		default:
			out = append(out, b)
		}
	}
	if thinking && p.replay == engine.ReplayUnsigned && !readable && !isNative(m) && !engine.HasThinkingItems(m) {
		if t := engine.StandardThinking(m); t != "" {
			out = append([]json.RawMessage{thinkingBlock(t)}, out...)
			readable = true
		}
	}
	if p.pad && !readable {
		out = append([]json.RawMessage{thinkingBlock(Pad)}, out...)
	}
	return out, nil
}

func (p plan) isRejected(fp string) bool {
	return len(p.rejected) > 0 && engine.HasFingerprint(p.rejected, fp)
}

// isNative reports whether the message replays from its native blocks.
func isNative(m *engine.Message) bool {
	return m.Native != nil && m.Native.Dialect == engine.ModeAnthropic && consistent(m)
}

// sourceBlocks returns the blocks an assistant message replays from, before
// the plan filters them: its native blocks when they still match its
// visible text and tool calls, else blocks built from the standard view
// (Anthropic-format thinking items of reasoning_details, the text, the tool
// calls).
func sourceBlocks(m *engine.Message) ([]json.RawMessage, error) {
	if isNative(m) {
		return m.Native.Blocks, nil
	}
	var out []json.RawMessage
	for _, item := range m.ReasoningDetails {
		switch engine.ItemType(item) {
		case "thinking", "redacted_thinking":
			out = append(out, item)
		}
	}
	text, err := contentBlocks(m.Content)
	if err != nil {
		return nil, err
	}
	out = append(out, text...)
	for i, tc := range m.ToolCalls {
		input, err := engine.ToolArgsObject(tc.Function.Arguments)
		if err != nil {
			return nil, fmt.Errorf("tool_calls.%d: %w", i, err)
		}
		b := []byte(`{"type":"tool_use","id":`)
		b = engine.AppendQuoted(b, tc.ID)
		b = append(b, `,"name":`...)
		b = engine.AppendQuoted(b, tc.Function.Name)
		b = append(b, `,"input":`...)
		b = append(b, input...)
		out = append(out, append(b, '}'))
	}
	return out, nil
}

// consistent reports whether a message's native blocks still describe its
// visible turn (engine.TurnMatches): their text blocks, and their tool_use
// ids and names.
func consistent(m *engine.Message) bool {
	var texts []string
	var calls []engine.ToolCall
	for _, b := range m.Native.Blocks {
		v := gjson.ParseBytes(b)
		switch v.Get("type").Str {
		case "text":
			texts = append(texts, v.Get("text").Str)
		case "tool_use":
			calls = append(calls, engine.ToolCall{ID: v.Get("id").Str, Function: engine.FunctionCall{Name: v.Get("name").Str}})
		}
	}
	return engine.TurnMatches(m, texts, calls)
}
