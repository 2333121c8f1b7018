package chat

import (
	"fmt"
	"io"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/sse"
	"github.com/tidwall/gjson"
)

// CaptureStream reads an SSE stream of chat.completion.chunk events and
// returns the stored assistant message; it equals [Dialect.Capture] of the
// same response whole. Errors name the byte offset of the event in play.
func (Dialect) CaptureStream(r io.Reader) (engine.Message, error) {
	var a accumulator
	rd := sse.NewReader(r)
	chunks := 0
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return engine.Message{}, fmt.Errorf("chat: stream: %w", err)
		}
		data := strings.TrimSpace(ev.Data)
		if data == "[DONE]" {
			break
		}
		if field, value, ok := fastDelta(data); ok {
			a.feedText(field, value)
			chunks++
			continue
		}
		if !gjson.Valid(data) {
			return engine.Message{}, fmt.Errorf("chat: stream: event at offset %d: data is not valid JSON", ev.Offset)
		}
		var failure string
		gjson.Parse(data).ForEach(func(k, v gjson.Result) bool {
			switch k.Str {
			case "error":
				failure = v.Raw
				return false
			case "choices":
				v.ForEach(func(_, ch gjson.Result) bool {
					var delta gjson.Result
					index := int64(0)
					ch.ForEach(func(ck, cv gjson.Result) bool {
						switch ck.Str {
						case "index":
							index = cv.Int()
						case "delta":
							delta = cv
						}
						return true
					})
					if index == 0 {
						a.feed(delta)
					}
					return true
				})
			}
			return true
		})
		if failure != "" {
			return engine.Message{}, fmt.Errorf("chat: stream: event at offset %d is an error: %s", ev.Offset, failure)
		}
		chunks++
	}
	if chunks == 0 {
		return engine.Message{}, fmt.Errorf("chat: stream: no chunk events")
	}
	return a.message(), nil
}
