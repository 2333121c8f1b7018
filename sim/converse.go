package sim

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/providers"
)

func converseSupports(c providers.Condition) error {
	switch c.Kind {
	case providers.ConditionAssistantFieldPresent:
		return nil
	case providers.ConditionToolTurnFieldMissing:
		if strings.HasPrefix(c.Field, "reasoningContent") {
			return nil
		}
	case providers.ConditionSignatureInvalid, providers.ConditionSignatureMissing:
		if strings.HasPrefix(c.Field, "reasoningContent") || c.Field == "signature" {
			return nil
		}
	case providers.ConditionSealedBlobForeign:
		if strings.Contains(c.Field, "redacted") {
			return nil
		}
	}
	return unsupported(modeConverse, c)
}

// converseThinkingOn reports whether the request enables Claude thinking
// through additionalModelRequestFields.
func converseThinkingOn(root gjson.Result) bool {
	switch root.Get("additionalModelRequestFields.thinking.type").String() {
	case "enabled", "adaptive":
		return true
	}
	return false
}

// converseCheck evaluates a condition over a Converse request; the model is
// the one in the URL (/model/{modelId}/converse).
func converseCheck(s *Simulator, q *request, c providers.Condition) (hit, bool) {
	msgs := q.root.Get("messages").Array()
	at := func(i, k int) hit {
		return hit{index: i, field: c.Field, path: fmt.Sprintf("messages.%d.content.%d", i, k)}
	}
	if c.Kind == providers.ConditionToolTurnFieldMissing {
		if !converseThinkingOn(q.root) {
			return hit{}, false
		}
		for i := len(msgs) - 1; i >= 0; i-- {
			m := msgs[i]
			if m.Get("role").String() != "assistant" || !hasMember(m, "toolUse") {
				continue
			}
			if _, ok := key(m.Get("content.0"), "reasoningContent"); ok {
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
			if c.Kind == providers.ConditionAssistantFieldPresent {
				if _, ok := key(b, c.Field); ok {
					return at(i, k), true
				}
				continue
			}
			rc, ok := key(b, "reasoningContent")
			if !ok {
				continue
			}
			text, isText := key(rc, "reasoningText")
			blob, isBlob := key(rc, "redactedContent")
			switch c.Kind {
			case providers.ConditionSignatureMissing:
				if isText && !onlyRedacted && text.Get("signature").String() == "" {
					return at(i, k), true
				}
			case providers.ConditionSignatureInvalid:
				sig := text.Get("signature")
				if isText && !onlyRedacted && sig.Type == gjson.String && sig.Str != "" && !s.g.verify(text.Get("text").String(), sig.Str) {
					return at(i, k), true
				}
				if isBlob {
					if sb, parsed := s.g.open(blob.String()); !parsed || !sb.genuine {
						return at(i, k), true
					}
				}
			case providers.ConditionSealedBlobForeign:
				if isBlob {
					if sb, parsed := s.g.open(blob.String()); parsed && sb.model != q.model {
						return at(i, k), true
					}
				}
			}
		}
	}
	return hit{}, false
}

// hasMember reports whether some content block of m has the key name.
func hasMember(m gjson.Result, name string) bool {
	for _, b := range m.Get("content").Array() {
		if _, ok := key(b, name); ok {
			return true
		}
	}
	return false
}

// converseRead extracts the conversation of a Converse request. A user
// message holding toolResult blocks is a tool result, not a new turn.
func converseRead(s *Simulator, q *request) conversation {
	msgs := q.root.Get("messages").Array()
	c := conversation{lastUser: -1}
	for i, m := range msgs {
		if m.Get("role").String() == "user" && !hasMember(m, "toolResult") {
			c.lastUser = i
		}
	}
	if c.lastUser >= 0 {
		c.userText = chatText(msgs[c.lastUser].Get("content"))
		c.endsWithUser = c.lastUser == len(msgs)-1
	}
	if tool := q.root.Get("toolConfig.tools.0"); tool.Exists() {
		c.hasTools = true
		c.toolName = tool.Get("toolSpec.name").String()
	}
	for i, m := range msgs {
		if m.Get("role").String() != "assistant" {
			continue
		}
		for _, b := range m.Get("content").Array() {
			rc, ok := key(b, "reasoningContent")
			if !ok {
				continue
			}
			if t := rc.Get("reasoningText.text").String(); t != "" {
				c.replayed = append(c.replayed, replayed{i, "reasoningContent", t})
			}
			if blob := rc.Get("redactedContent"); blob.Exists() {
				if sb, parsed := s.g.open(blob.String()); parsed && sb.genuine {
					c.replayed = append(c.replayed, replayed{i, "reasoningContent", sb.text})
				}
			}
		}
	}
	return c
}
