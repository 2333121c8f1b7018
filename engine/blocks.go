package engine

import "github.com/tidwall/gjson"

// EachAssistantBlock calls f for every content block of the assistant
// messages of a request body shaped messages[].content[] (Anthropic
// Messages, Bedrock Converse), in order.
func EachAssistantBlock(body []byte, f func(gjson.Result)) {
	gjson.GetBytes(body, "messages").ForEach(func(_, m gjson.Result) bool {
		if c := m.Get("content"); m.Get("role").Str == "assistant" && c.IsArray() {
			c.ForEach(func(_, b gjson.Result) bool {
				f(b)
				return true
			})
		}
		return true
	})
}
