package evidence

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// A wireFormat says where a request body of one api mode keeps its
// conversation: the list key and the role of the model's turns.
type wireFormat struct {
	mode      engine.APIMode
	list      string
	assistant string
}

// wireOf returns the wire format of an api mode the reproduction reads.
func wireOf(mode engine.APIMode) (wireFormat, bool) {
	switch mode {
	case engine.ModeChat, engine.ModeAnthropic, engine.ModeBedrockConverse:
		return wireFormat{mode, "messages", "assistant"}, true
	case engine.ModeGemini:
		return wireFormat{mode, "contents", "model"}, true
	case engine.ModeResponses:
		return wireFormat{mode, "input", "assistant"}, true
	}
	return wireFormat{}, false
}

// messages returns the request body's conversation list: its elements (a
// Responses input given as one string is one element).
func (w wireFormat) messages(body []byte) []gjson.Result {
	return gjson.GetBytes(body, w.list).Array()
}

// A wireTurn is one turn of a request's conversation: a message, or, on
// the Responses api, the run of output items one response put there
// (reasoning, function calls, the assistant message) as a JSON array. at
// is the index of its first element in the list.
type wireTurn struct {
	at        int
	v         gjson.Result
	assistant bool
}

// turns splits the request body's conversation into turns.
func (w wireFormat) turns(body []byte) []wireTurn {
	var out []wireTurn
	elems := w.messages(body)
	for i := 0; i < len(elems); i++ {
		if w.mode != engine.ModeResponses {
			out = append(out, wireTurn{i, elems[i], elems[i].Get("role").Str == w.assistant})
			continue
		}
		if !isOutputItem(elems[i]) {
			out = append(out, wireTurn{i, elems[i], false})
			continue
		}
		j := i
		for j < len(elems) && isOutputItem(elems[j]) {
			j++
		}
		raw := make([]string, 0, j-i)
		for _, e := range elems[i:j] {
			raw = append(raw, e.Raw)
		}
		out = append(out, wireTurn{i, gjson.Parse("[" + joinRaw(raw) + "]"), true})
		i = j - 1
	}
	return out
}

// isOutputItem reports whether a Responses input item is one the model
// produced (reasoning, a function call, an assistant message, a built-in
// tool call), not one the client wrote (a user, system or developer
// message, a function call's output, a bare string).
func isOutputItem(item gjson.Result) bool {
	if !item.IsObject() {
		return false
	}
	switch item.Get("role").Str {
	case "user", "system", "developer":
		return false
	}
	return !strings.HasSuffix(item.Get("type").Str, "_output")
}

// history turns one non-assistant wire message into stored messages, the
// way the dialects shape them back: a chat message as it is; a native
// user turn as a user message carrying its blocks (or parts), its tool
// results split off as tool messages (Anthropic tool_result, Converse
// toolResult, Gemini functionResponse, linked to the call by id or, for
// Gemini responses whose id names no call of hist — the recording client
// may number calls itself — by name to the latest unanswered call).
func (w wireFormat) history(m gjson.Result, hist []engine.Message) ([]engine.Message, error) {
	if w.mode == engine.ModeResponses {
		return responsesHistory(m)
	}
	if w.mode == engine.ModeChat {
		var msg engine.Message
		if err := json.Unmarshal([]byte(m.Raw), &msg); err != nil {
			return nil, err
		}
		return []engine.Message{msg}, nil
	}
	content := m.Get("content")
	if w.mode == engine.ModeGemini {
		content = m.Get("parts")
	}
	if !content.IsArray() {
		return []engine.Message{{Role: "user", Content: json.RawMessage(content.Raw)}}, nil
	}
	var tools []engine.Message
	var rest []string
	for _, b := range content.Array() {
		switch {
		case w.mode == engine.ModeAnthropic && b.Get("type").Str == "tool_result":
			tools = append(tools, toolMessage(b.Get("tool_use_id").Str, "", b.Get("content")))
		case w.mode == engine.ModeBedrockConverse && b.Get("toolResult").Exists():
			tools = append(tools, toolMessage(b.Get("toolResult.toolUseId").Str, "", b.Get("toolResult.content")))
		case w.mode == engine.ModeGemini && b.Get("functionResponse").Exists():
			fr := b.Get("functionResponse")
			id := fr.Get("id").Str
			if !hasCall(hist, id) {
				id = unansweredCall(hist, tools, fr.Get("name").Str)
			}
			tools = append(tools, toolMessage(id, fr.Get("name").Str, fr.Get("response")))
		default:
			rest = append(rest, b.Raw)
		}
	}
	out := tools
	if len(rest) > 0 {
		raw := "[" + joinRaw(rest) + "]"
		out = append(out, engine.Message{Role: "user", Content: json.RawMessage(raw)})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("a %s turn with no content", m.Get("role").Str)
	}
	return out, nil
}

// hasCall reports whether an assistant message of hist made the call id.
func hasCall(hist []engine.Message, id string) bool {
	for _, m := range hist {
		for _, tc := range m.ToolCalls {
			if id != "" && tc.ID == id {
				return true
			}
		}
	}
	return false
}

func toolMessage(id, name string, content gjson.Result) engine.Message {
	m := engine.Message{Role: "tool", ToolCallID: id, Name: name}
	if content.Exists() {
		m.Content = json.RawMessage(content.Raw)
	}
	return m
}

// unansweredCall returns the id of the latest assistant tool call named
// name that no tool message (in hist or pending) answers yet.
func unansweredCall(hist, pending []engine.Message, name string) string {
	answered := map[string]bool{}
	for _, m := range append(append([]engine.Message(nil), hist...), pending...) {
		if m.Role == "tool" {
			answered[m.ToolCallID] = true
		}
	}
	for i := len(hist) - 1; i >= 0; i-- {
		for _, tc := range hist[i].ToolCalls {
			if tc.Function.Name == name && !answered[tc.ID] {
				return tc.ID
			}
		}
	}
	return ""
}

func joinRaw(parts []string) string {
	n := 0
	for _, p := range parts {
		n += len(p) + 1
	}
	b := make([]byte, 0, n)
	for i, p := range parts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, p...)
	}
	return string(b)
}

// responsesHistory turns one client-written Responses input item into a
// stored message, the way the Responses dialect shapes it back: a bare
// string or a message item as a message of its role with its content, a
// function_call_output as the tool message answering its call.
func responsesHistory(item gjson.Result) ([]engine.Message, error) {
	switch {
	case item.Type == gjson.String:
		return []engine.Message{{Role: "user", Content: json.RawMessage(item.Raw)}}, nil
	case item.Get("type").Str == "function_call_output":
		out := item.Get("output")
		if !out.Exists() {
			return nil, fmt.Errorf("a function_call_output with no output")
		}
		return []engine.Message{{Role: "tool", ToolCallID: item.Get("call_id").Str, Content: json.RawMessage(out.Raw)}}, nil
	case item.Get("role").Exists():
		return []engine.Message{{Role: item.Get("role").Str, Content: json.RawMessage(item.Get("content").Raw)}}, nil
	}
	return nil, fmt.Errorf("an input item of type %q the evidence checks do not read", item.Get("type").Str)
}
