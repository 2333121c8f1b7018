package sim

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/providers"
)

// Signed chat carriers, by the family a condition field names.
const (
	chatDetails  = "reasoning_details"          // reasoning.text signature / reasoning.encrypted data
	chatOpaque   = "reasoning_opaque"           // Copilot sealed state
	chatExtra    = "extra_content"              // Gemini OpenAI-compat tool_calls[].extra_content.google.thought_signature
	chatFunction = "function.thought_signature" // Copilot tool_calls[].function.thought_signature
)

// chatSignedFamily maps a condition field to the signed carrier it names.
func chatSignedFamily(field string) (string, bool) {
	switch {
	case strings.HasPrefix(field, chatDetails):
		return chatDetails, true
	case field == chatOpaque:
		return chatOpaque, true
	case strings.HasSuffix(field, chatFunction):
		return chatFunction, true
	case strings.Contains(field, chatExtra) || field == "thought_signature":
		return chatExtra, true
	}
	return "", false
}

func chatSupports(c providers.Condition) error {
	switch c.Kind {
	case providers.ConditionAssistantFieldPresent, providers.ConditionToolTurnFieldMissing:
		return nil
	case providers.ConditionSignatureInvalid, providers.ConditionSignatureMissing:
		if _, ok := chatSignedFamily(c.Field); ok {
			return nil
		}
	case providers.ConditionSealedBlobForeign:
		if f, ok := chatSignedFamily(c.Field); ok && (f == chatDetails || f == chatOpaque) {
			return nil
		}
	}
	return unsupported(modeChat, c)
}

// chatCheck evaluates a condition over an OpenAI chat completions request.
func chatCheck(s *Simulator, q *request, c providers.Condition) (hit, bool) {
	msgs := q.root.Get("messages").Array()
	lastUser, lastTool := -1, -1
	for i, m := range msgs {
		switch m.Get("role").String() {
		case "user":
			lastUser = i
		case "assistant":
			if hasToolCalls(m) {
				lastTool = i
			}
		}
	}
	for i, m := range msgs {
		if m.Get("role").String() != "assistant" {
			continue
		}
		if h, ok := chatCheckMessage(s, q, c, i, m, i > lastUser, i == lastTool); ok {
			return h, true
		}
	}
	return hit{}, false
}

func hasToolCalls(m gjson.Result) bool {
	tc := m.Get("tool_calls")
	return tc.IsArray() && len(tc.Array()) > 0
}

// chatCheckMessage evaluates c on assistant message i. current is true for
// messages after the last user message; lastToolTurn for the last assistant
// message with tool calls.
func chatCheckMessage(s *Simulator, q *request, c providers.Condition, i int, m gjson.Result, current, lastToolTurn bool) (hit, bool) {
	at := func(path string) hit {
		return hit{index: i, field: c.Field, path: fmt.Sprintf("messages.%d.%s", i, path)}
	}
	switch c.Kind {
	case providers.ConditionAssistantFieldPresent:
		if _, ok := key(m, c.Field); ok {
			return at(c.Field), true
		}
	case providers.ConditionToolTurnFieldMissing:
		if hasToolCalls(m) && valueMissing(m, c) {
			return at(c.Field), true
		}
	default:
		family, _ := chatSignedFamily(c.Field)
		switch family {
		case chatDetails:
			return chatCheckDetails(s, q, c, m, at)
		case chatOpaque:
			v, ok := key(m, chatOpaque)
			present := nonEmptyString(v, ok)
			switch c.Kind {
			case providers.ConditionSignatureMissing:
				if lastToolTurn && !present {
					return at(chatOpaque), true
				}
			case providers.ConditionSignatureInvalid:
				if present {
					if b, parsed := s.g.open(v.Str); !parsed || !b.genuine {
						return at(chatOpaque), true
					}
				}
			case providers.ConditionSealedBlobForeign:
				if present {
					if b, parsed := s.g.open(v.Str); parsed && b.model != q.model {
						return at(chatOpaque), true
					}
				}
			}
		case chatExtra, chatFunction:
			return chatCheckThought(s, c, family, m, current, at)
		}
	}
	return hit{}, false
}

// valueMissing applies tool_turn_field_missing to one message: the key is
// absent or null, or (BlankIsMissing) "" or [], or (WhitespaceIsMissing)
// only whitespace.
func valueMissing(m gjson.Result, c providers.Condition) bool {
	v, ok := key(m, c.Field)
	if !ok || v.Type == gjson.Null {
		return true
	}
	if v.IsArray() {
		return c.BlankIsMissing && len(v.Array()) == 0
	}
	if v.Type != gjson.String {
		return false
	}
	return (c.BlankIsMissing && v.Str == "") || (c.WhitespaceIsMissing && strings.TrimSpace(v.Str) == "")
}

// chatCheckDetails checks reasoning_details items: a reasoning.text item
// with text must carry a signature that verifies; a reasoning.encrypted
// item's data must be a genuine blob sealed for this model.
func chatCheckDetails(s *Simulator, q *request, c providers.Condition, m gjson.Result, at func(string) hit) (hit, bool) {
	items, _ := key(m, chatDetails)
	for k, it := range items.Array() {
		path := fmt.Sprintf("%s.%d", chatDetails, k)
		switch it.Get("type").String() {
		case "reasoning.text":
			sig := it.Get("signature")
			signed := sig.Type == gjson.String && sig.Str != ""
			switch c.Kind {
			case providers.ConditionSignatureMissing:
				if !signed && it.Get("text").String() != "" {
					return at(path), true
				}
			case providers.ConditionSignatureInvalid:
				if signed && !s.g.verify(it.Get("text").String(), sig.Str) {
					return at(path), true
				}
			}
		case "reasoning.encrypted":
			data := it.Get("data")
			switch c.Kind {
			case providers.ConditionSignatureMissing:
				if data.String() == "" {
					return at(path), true
				}
			case providers.ConditionSignatureInvalid:
				if b, parsed := s.g.open(data.String()); !parsed || !b.genuine {
					return at(path), true
				}
			case providers.ConditionSealedBlobForeign:
				if b, parsed := s.g.open(data.String()); parsed && b.model != q.model {
					return at(path), true
				}
			}
		}
	}
	return hit{}, false
}

// chatCheckThought checks thought signatures on tool calls (Gemini
// OpenAI-compat extra_content, Copilot function.thought_signature): missing
// on the first call of a current-turn message, or present and not genuine.
func chatCheckThought(s *Simulator, c providers.Condition, family string, m gjson.Result, current bool, at func(string) hit) (hit, bool) {
	sub := "extra_content.google.thought_signature"
	if family == chatFunction {
		sub = "function.thought_signature"
	}
	calls := m.Get("tool_calls").Array()
	switch c.Kind {
	case providers.ConditionSignatureMissing:
		if current && len(calls) > 0 && calls[0].Get(sub).String() == "" {
			return at("tool_calls.0." + sub), true
		}
	case providers.ConditionSignatureInvalid:
		for k, call := range calls {
			if v := call.Get(sub); v.Exists() {
				if _, ok := s.g.checkThought(v.String()); !ok {
					return at(fmt.Sprintf("tool_calls.%d.%s", k, sub)), true
				}
			}
		}
		if family == chatExtra {
			if v := m.Get(sub); v.Exists() {
				if _, ok := s.g.checkThought(v.String()); !ok {
					return at(sub), true
				}
			}
		}
	}
	return hit{}, false
}

// chatRead extracts the conversation of a chat request.
func chatRead(s *Simulator, q *request) conversation {
	msgs := q.root.Get("messages").Array()
	c := conversation{lastUser: -1}
	for i, m := range msgs {
		if m.Get("role").String() == "user" {
			c.lastUser = i
		}
	}
	if c.lastUser >= 0 {
		c.userText = chatText(msgs[c.lastUser].Get("content"))
		c.endsWithUser = c.lastUser == len(msgs)-1
	}
	if tool := q.root.Get("tools.0"); tool.Exists() {
		c.hasTools = true
		c.toolName = tool.Get("function.name").String()
	}
	for i, m := range msgs {
		if m.Get("role").String() != "assistant" {
			continue
		}
		add := func(carrier, text string) {
			if text != "" {
				c.replayed = append(c.replayed, replayed{index: i, carrier: carrier, text: text})
			}
		}
		for _, f := range []string{"reasoning_content", "reasoning", "reasoning_text"} {
			if v, ok := key(m, f); ok && v.Type == gjson.String {
				add(f, v.Str)
			}
		}
		if items, ok := key(m, chatDetails); ok {
			for _, it := range items.Array() {
				add(chatDetails, it.Get("text").String())
				add(chatDetails, it.Get("summary").String())
				if it.Get("type").String() == "reasoning.encrypted" {
					if b, parsed := s.g.open(it.Get("data").String()); parsed && b.genuine {
						add(chatDetails, b.text)
					}
				}
			}
		}
		if v, ok := key(m, chatOpaque); ok {
			if b, parsed := s.g.open(v.String()); parsed && b.genuine {
				add(chatOpaque, b.text)
			}
		}
		thoughts := []gjson.Result{m.Get("extra_content.google.thought_signature")}
		for _, call := range m.Get("tool_calls").Array() {
			thoughts = append(thoughts, call.Get("extra_content.google.thought_signature"))
		}
		for _, v := range thoughts {
			if text, ok := s.g.checkThought(v.String()); v.Exists() && ok {
				add(chatExtra, text)
			}
		}
		for _, part := range m.Get("content").Array() {
			if part.Get("type").String() == "thinking" {
				add("thinking", chatText(part.Get("thinking")))
			}
		}
	}
	return c
}

// chatText flattens message content: a string, or an array of parts whose
// text members are joined with newlines.
func chatText(content gjson.Result) string {
	if content.Type == gjson.String {
		return content.Str
	}
	var parts []string
	for _, p := range content.Array() {
		if t := p.Get("text"); t.Type == gjson.String {
			parts = append(parts, t.Str)
		}
	}
	return strings.Join(parts, "\n")
}
