package sim

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/providers"
)

func anthropicSupports(c providers.Condition) error {
	switch c.Kind {
	case providers.ConditionAssistantFieldPresent:
		return nil
	case providers.ConditionToolTurnFieldMissing:
		if strings.HasPrefix(c.Field, "thinking") {
			return nil
		}
	case providers.ConditionSignatureInvalid, providers.ConditionSignatureMissing:
		if strings.Contains(c.Field, "thinking") || c.Field == "signature" {
			return nil
		}
	case providers.ConditionSealedBlobForeign:
		if strings.Contains(c.Field, "redacted") {
			return nil
		}
	}
	return unsupported(modeAnthropic, c)
}

// anthropicThinkingOn reports whether the request enables thinking.
func anthropicThinkingOn(root gjson.Result) bool {
	switch root.Get("thinking.type").String() {
	case "enabled", "adaptive":
		return true
	}
	return false
}

// anthropicCheck evaluates a condition over a Messages API request.
func anthropicCheck(s *Simulator, q *request, c providers.Condition) (hit, bool) {
	msgs := q.root.Get("messages").Array()
	at := func(i, k int) hit {
		return hit{index: i, field: c.Field, path: fmt.Sprintf("messages.%d.content.%d", i, k)}
	}
	if c.Kind == providers.ConditionToolTurnFieldMissing {
		if !anthropicThinkingOn(q.root) {
			return hit{}, false
		}
		// Only the in-flight tool loop counts: the assistant turns after
		// the last user message that is not just tool results. A new user
		// question closes the loop, and earlier turns' thinking may be
		// dropped (Anthropic and Bedrock extended-thinking docs).
		for i := len(msgs) - 1; i >= 0; i-- {
			m := msgs[i]
			if m.Get("role").String() == "user" && !onlyToolResults(m) {
				break
			}
			if m.Get("role").String() != "assistant" || !hasBlock(m, "tool_use") {
				continue
			}
			switch m.Get("content.0.type").String() {
			case "thinking", "redacted_thinking":
				return hit{}, false
			}
			return at(i, 0), true
		}
		return hit{}, false
	}
	onlyRedacted := strings.Contains(c.Field, "redacted")
	for i, m := range msgs {
		if m.Get("role").String() != "assistant" {
			continue
		}
		if c.Kind == providers.ConditionAssistantFieldPresent {
			if _, ok := key(m, c.Field); ok {
				return hit{index: i, field: c.Field, path: fmt.Sprintf("messages.%d.%s", i, c.Field)}, true
			}
		}
		content := m.Get("content")
		if !content.IsArray() {
			continue
		}
		for k, b := range content.Array() {
			typ := b.Get("type").String()
			switch c.Kind {
			case providers.ConditionAssistantFieldPresent:
				if _, ok := key(b, c.Field); ok || typ == c.Field {
					return at(i, k), true
				}
			case providers.ConditionSignatureMissing:
				if typ == "thinking" && !onlyRedacted && b.Get("signature").String() == "" {
					return at(i, k), true
				}
				if typ == "redacted_thinking" && b.Get("data").String() == "" {
					return at(i, k), true
				}
			case providers.ConditionSignatureInvalid:
				sig := b.Get("signature")
				if typ == "thinking" && !onlyRedacted && sig.Type == gjson.String && sig.Str != "" && !s.g.verify(b.Get("thinking").String(), sig.Str) {
					return at(i, k), true
				}
				if typ == "redacted_thinking" {
					if blob, parsed := s.g.open(b.Get("data").String()); !parsed || !blob.genuine {
						return at(i, k), true
					}
				}
			case providers.ConditionSealedBlobForeign:
				if typ == "redacted_thinking" {
					if blob, parsed := s.g.open(b.Get("data").String()); parsed && blob.model != q.model {
						return at(i, k), true
					}
				}
			}
		}
	}
	return hit{}, false
}

// onlyToolResults reports whether a user message holds nothing but
// tool_result blocks (it continues a tool loop rather than asking anew).
func onlyToolResults(m gjson.Result) bool {
	content := m.Get("content")
	if !content.IsArray() || len(content.Array()) == 0 {
		return false
	}
	for _, b := range content.Array() {
		if b.Get("type").String() != "tool_result" {
			return false
		}
	}
	return true
}

// hasBlock reports whether a message's content has a block of type typ.
func hasBlock(m gjson.Result, typ string) bool {
	for _, b := range m.Get("content").Array() {
		if b.Get("type").String() == typ {
			return true
		}
	}
	return false
}

// anthropicRead extracts the conversation of a Messages API request. A
// user message holding tool_result blocks is a tool result, not a new turn.
func anthropicRead(s *Simulator, q *request) conversation {
	msgs := q.root.Get("messages").Array()
	c := conversation{lastUser: -1}
	for i, m := range msgs {
		if m.Get("role").String() == "user" && !hasBlock(m, "tool_result") {
			c.lastUser = i
		}
	}
	if c.lastUser >= 0 {
		c.userText = chatText(msgs[c.lastUser].Get("content"))
		c.endsWithUser = c.lastUser == len(msgs)-1
	}
	if tool := q.root.Get("tools.0"); tool.Exists() {
		c.hasTools = true
		c.toolName = tool.Get("name").String()
	}
	for i, m := range msgs {
		if m.Get("role").String() != "assistant" {
			continue
		}
		for _, b := range m.Get("content").Array() {
			switch b.Get("type").String() {
			case "thinking":
				if t := b.Get("thinking").String(); t != "" {
					c.replayed = append(c.replayed, replayed{i, "thinking", t})
				}
			case "redacted_thinking":
				if blob, parsed := s.g.open(b.Get("data").String()); parsed && blob.genuine {
					c.replayed = append(c.replayed, replayed{i, "redacted_thinking", blob.text})
				}
			}
		}
	}
	return c
}
