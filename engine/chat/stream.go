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
		if !gjson.Valid(data) {
			return engine.Message{}, fmt.Errorf("chat: stream: event at offset %d: data is not valid JSON", ev.Offset)
		}
		if e := gjson.Get(data, "error"); e.Exists() {
			return engine.Message{}, fmt.Errorf("chat: stream: event at offset %d is an error: %s", ev.Offset, e.Raw)
		}
		chunks++
		gjson.Get(data, "choices").ForEach(func(_, ch gjson.Result) bool {
			if ch.Get("index").Int() == 0 {
				a.feed(ch.Get("delta"))
			}
			return true
		})
	}
	if chunks == 0 {
		return engine.Message{}, fmt.Errorf("chat: stream: no chunk events")
	}
	return a.message(), nil
}
