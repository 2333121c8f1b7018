package chat

import (
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// Capture turns a whole chat.completion body into the stored assistant
// message, with every carrier (SPEC §5).
func (Dialect) Capture(body []byte) (engine.Message, error) {
	if !gjson.ValidBytes(body) {
		return engine.Message{}, engine.NotJSON("chat: response body", body)
	}
	msg := gjson.GetBytes(body, "choices.0.message")
	if !msg.IsObject() {
		if e := gjson.GetBytes(body, "error"); e.Exists() {
			return engine.Message{}, fmt.Errorf("chat: response is an error: %s", e.Raw)
		}
		return engine.Message{}, fmt.Errorf("chat: response has no choices.0.message object")
	}
	var a accumulator
	a.feed(msg)
	return a.message(), nil
}
