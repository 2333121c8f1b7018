package bedrock

import (
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// Capture turns a whole Converse response body into the stored assistant
// message (SPEC §5): output.message.content in order.
func (Dialect) Capture(body []byte) (engine.Message, error) {
	if !gjson.ValidBytes(body) {
		return engine.Message{}, engine.NotJSON("bedrock: response body", body)
	}
	root := gjson.ParseBytes(body)
	content := root.Get("output.message.content")
	if !content.IsArray() {
		if msg := root.Get("message"); msg.Exists() {
			return engine.Message{}, fmt.Errorf("bedrock: response is an error: %s", msg.Raw)
		}
		return engine.Message{}, fmt.Errorf("bedrock: response has no output.message.content array")
	}
	var blocks []*block
	var err error
	content.ForEach(func(k, v gjson.Result) bool {
		if !v.IsObject() {
			err = fmt.Errorf("bedrock: output.message.content.%d: not an object", k.Int())
			return false
		}
		b := &block{index: k.Int()}
		if err = b.whole(v); err != nil {
			err = fmt.Errorf("bedrock: output.message.content.%d: %w", k.Int(), err)
			return false
		}
		blocks = append(blocks, b)
		return true
	})
	if err != nil {
		return engine.Message{}, err
	}
	m, err := turn(blocks)
	if err != nil {
		return engine.Message{}, fmt.Errorf("bedrock: %w", err)
	}
	return m, nil
}
