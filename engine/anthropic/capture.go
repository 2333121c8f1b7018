package anthropic

import (
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// Capture turns a whole Messages response body into the stored assistant
// message: every content block in order as the native turn, plus the
// standard view (SPEC §5).
func (Dialect) Capture(body []byte) (engine.Message, error) {
	if !gjson.ValidBytes(body) {
		return engine.Message{}, engine.NotJSON("anthropic: response body", body)
	}
	root := gjson.ParseBytes(body)
	if root.Get("type").Str == "error" || root.Get("error").IsObject() {
		return engine.Message{}, fmt.Errorf("anthropic: response is an error: %s", root.Get("error").Raw)
	}
	content := root.Get("content")
	if !content.IsArray() {
		return engine.Message{}, fmt.Errorf("anthropic: response has no content array")
	}
	var blocks []*block
	var err error
	content.ForEach(func(k, v gjson.Result) bool {
		if !v.IsObject() {
			err = fmt.Errorf("anthropic: content.%d: not an object", k.Int())
			return false
		}
		blocks = append(blocks, newBlock(v))
		return true
	})
	if err != nil {
		return engine.Message{}, err
	}
	m, err := turn(blocks)
	if err != nil {
		return engine.Message{}, fmt.Errorf("anthropic: %w", err)
	}
	return m, nil
}
