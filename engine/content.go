package engine

import (
	"bytes"
	"encoding/json"

	"github.com/tidwall/gjson"
)

// IsNullContent reports whether a message content is absent or JSON null.
func IsNullContent(c json.RawMessage) bool {
	return len(c) == 0 || string(bytes.TrimSpace(c)) == "null"
}

// SystemTexts lists the request's system prompt and the history's system
// messages, in that order: a system message's string content, or each
// non-empty "text" of its array of parts. Empty texts are left out.
func SystemTexts(system string, msgs []Message) []string {
	var out []string
	if system != "" {
		out = append(out, system)
	}
	for i := range msgs {
		if msgs[i].Role != "system" {
			continue
		}
		v := gjson.ParseBytes(msgs[i].Content)
		if v.Type == gjson.String && v.Str != "" {
			out = append(out, v.Str)
			continue
		}
		v.ForEach(func(_, part gjson.Result) bool {
			if t := part.Get("text"); t.Type == gjson.String && t.Str != "" {
				out = append(out, t.Str)
			}
			return true
		})
	}
	return out
}
