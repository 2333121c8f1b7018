package providers

import "slices"

// TakeOut removes from one chat message, decoded from JSON (objects as
// map[string]any), the differences in declared that apply to it, and
// returns those that changed it, in declared's order:
//
//   - [DifferenceToolResultName]: the name of a role "tool" message;
//   - [DifferenceToolCallContent]: a "" or null content of an assistant
//     message with tool calls;
//   - [DifferenceToolCallType]: a tool call's type "function".
//
// Two messages that differ only in declared differences come out alike.
// It is the one reading of [Ignore] that cassette matching and the
// recorded-evidence comparison share. A value that is not an object is
// left alone.
func TakeOut(msg any, declared []string) []string {
	m, ok := msg.(map[string]any)
	if !ok {
		return nil
	}
	var changed []string
	calls, _ := m["tool_calls"].([]any)
	for _, d := range declared {
		switch d {
		case DifferenceToolResultName:
			if _, present := m["name"]; present && m["role"] == "tool" {
				delete(m, "name")
				changed = append(changed, d)
			}
		case DifferenceToolCallContent:
			if c, present := m["content"]; present && m["role"] == "assistant" && len(calls) > 0 && (c == nil || c == "") {
				delete(m, "content")
				changed = append(changed, d)
			}
		case DifferenceToolCallType:
			for _, c := range calls {
				if call, ok := c.(map[string]any); ok && call["type"] == "function" {
					delete(call, "type")
					if !slices.Contains(changed, d) {
						changed = append(changed, d)
					}
				}
			}
		}
	}
	return changed
}
