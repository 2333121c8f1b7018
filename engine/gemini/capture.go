package gemini

import (
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// Capture turns a whole generateContent response body into the stored
// assistant message (SPEC §5), from its first candidate.
func (Dialect) Capture(body []byte) (engine.Message, error) {
	if !gjson.ValidBytes(body) {
		return engine.Message{}, engine.NotJSON("gemini: response body", body)
	}
	root := gjson.ParseBytes(body)
	if root.IsArray() {
		root = root.Get("0")
	}
	if e := root.Get("error"); e.IsObject() {
		return engine.Message{}, fmt.Errorf("gemini: response is an error: %s", e.Raw)
	}
	cand := root.Get("candidates.0")
	if !cand.IsObject() {
		if r := root.Get("promptFeedback.blockReason"); r.Exists() {
			return engine.Message{}, fmt.Errorf("gemini: prompt blocked: %s", r.Str)
		}
		return engine.Message{}, fmt.Errorf("gemini: response has no candidates")
	}
	var a accumulator
	if err := a.feed(cand); err != nil {
		return engine.Message{}, fmt.Errorf("gemini: candidates.0.%w", err)
	}
	return a.message(), nil
}
