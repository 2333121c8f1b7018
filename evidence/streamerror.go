package evidence

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/tidwall/gjson"
)

// streamError finds a provider error delivered inside a 2xx streamed
// answer and returns its JSON, nil when the stream holds none. A provider
// that has already answered 200 can only refuse or fail by an event:
// Groq ends a stream whose tool call failed validation with an SSE event
// named "error" carrying its usual envelope (code tool_use_failed), which
// the Stainless-generated SDKs raise as an API error (groq/groq-python
// PR 119, "handle streaming error"). Recognised: an event named error, or
// a data line whose JSON is an error envelope (an "error" object at the
// top); the first one wins.
func streamError(body []byte) []byte {
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 64*1024), len(body)+1)
	event := ""
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case line == "":
			event = ""
		case strings.HasPrefix(line, "event:"):
			event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			data := strings.TrimSpace(strings.TrimPrefix(line, "data:"))
			if !gjson.Valid(data) {
				continue
			}
			if event == "error" || gjson.Get(data, "error").IsObject() {
				return []byte(data)
			}
		}
	}
	return nil
}
