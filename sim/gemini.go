package sim

import (
	"fmt"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/providers"
)

func geminiSupports(c providers.Condition) error {
	switch c.Kind {
	case providers.ConditionAssistantFieldPresent:
		return nil
	case providers.ConditionSignatureInvalid, providers.ConditionSignatureMissing:
		if strings.Contains(c.Field, "thoughtSignature") {
			return nil
		}
	}
	return unsupported(modeGemini, c)
}

// geminiUserTurn reports whether content m opens a new turn: role user (or
// no role) with a text part; functionResponse turns are role user but only
// continue the current turn.
func geminiUserTurn(m gjson.Result) bool {
	if role := m.Get("role").String(); role != "user" && role != "" {
		return false
	}
	text := false
	for _, p := range m.Get("parts").Array() {
		if _, ok := key(p, "functionResponse"); ok {
			return false
		}
		if _, ok := key(p, "text"); ok {
			text = true
		}
	}
	return text
}

// geminiLastUser is the index of the last content that opens a turn.
func geminiLastUser(contents []gjson.Result) int {
	last := -1
	for i, m := range contents {
		if geminiUserTurn(m) {
			last = i
		}
	}
	return last
}

// geminiCheck evaluates a condition over a native generateContent request.
// Each model content is one step; in the current turn the first
// functionCall part of every step must carry a thoughtSignature, and any
// signature present must verify.
func geminiCheck(s *Simulator, q *request, c providers.Condition) (hit, bool) {
	contents := q.root.Get("contents").Array()
	lastUser := geminiLastUser(contents)
	at := func(i, k int) hit {
		return hit{index: i, field: c.Field, path: fmt.Sprintf("contents.%d.parts.%d", i, k)}
	}
	for i, m := range contents {
		if m.Get("role").String() != "model" {
			continue
		}
		if c.Kind == providers.ConditionAssistantFieldPresent {
			if _, ok := key(m, c.Field); ok {
				return hit{index: i, field: c.Field, path: fmt.Sprintf("contents.%d.%s", i, c.Field)}, true
			}
		}
		firstCall := true
		for k, p := range m.Get("parts").Array() {
			sig, signed := key(p, "thoughtSignature")
			switch c.Kind {
			case providers.ConditionAssistantFieldPresent:
				if _, ok := key(p, c.Field); ok {
					return at(i, k), true
				}
			case providers.ConditionSignatureMissing:
				if _, call := key(p, "functionCall"); call && firstCall {
					firstCall = false
					if i > lastUser && sig.String() == "" {
						return at(i, k), true
					}
				}
			case providers.ConditionSignatureInvalid:
				if signed {
					if _, ok := s.g.checkThought(sig.String()); !ok {
						return at(i, k), true
					}
				}
			}
		}
	}
	return hit{}, false
}

// geminiRead extracts the conversation of a generateContent request.
func geminiRead(s *Simulator, q *request) conversation {
	contents := q.root.Get("contents").Array()
	c := conversation{lastUser: geminiLastUser(contents)}
	if c.lastUser >= 0 {
		var texts []string
		for _, p := range contents[c.lastUser].Get("parts").Array() {
			if t := p.Get("text"); t.Type == gjson.String {
				texts = append(texts, t.Str)
			}
		}
		c.userText = strings.Join(texts, "\n")
		c.endsWithUser = c.lastUser == len(contents)-1
	}
	for _, tool := range q.root.Get("tools").Array() {
		if fd := tool.Get("functionDeclarations.0"); fd.Exists() {
			c.hasTools = true
			c.toolName = fd.Get("name").String()
			break
		}
	}
	for i, m := range contents {
		if m.Get("role").String() != "model" {
			continue
		}
		for _, p := range m.Get("parts").Array() {
			if sig, ok := key(p, "thoughtSignature"); ok {
				if text, genuine := s.g.checkThought(sig.String()); genuine && text != "" {
					c.replayed = append(c.replayed, replayed{i, "thoughtSignature", text})
				}
			}
			if p.Get("thought").Type == gjson.True {
				if t := p.Get("text").String(); t != "" {
					c.replayed = append(c.replayed, replayed{i, "thought", t})
				}
			}
		}
	}
	return c
}
