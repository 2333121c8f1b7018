package gemini

import (
	"fmt"
	"io"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/sse"
	"github.com/tidwall/gjson"
)

// CaptureStream reads a streamGenerateContent?alt=sse response and returns
// the stored assistant message; it equals [Dialect.Capture] of the same
// response whole. Each chunk's first candidate is fed in order; the
// signature of a trailing empty text part lands in the record. A stream
// that ends before a finishReason is an error (truncated); errors name the
// byte offset of the event in play.
func (Dialect) CaptureStream(r io.Reader) (engine.Message, error) {
	var a accumulator
	cr := &countingReader{r: r}
	rd := sse.NewReader(cr)
	chunks := 0
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return engine.Message{}, fmt.Errorf("gemini: stream: %w", err)
		}
		if text, thought, ok := fastChunk(ev.Data); ok {
			chunks++
			if thought {
				a.thoughts.WriteString(text)
			} else {
				a.text.WriteString(text)
			}
			continue
		}
		if !gjson.Valid(ev.Data) {
			return engine.Message{}, fmt.Errorf("gemini: stream: event at offset %d: data is not valid JSON", ev.Offset)
		}
		var cands, errv gjson.Result
		gjson.Parse(ev.Data).ForEach(func(k, v gjson.Result) bool {
			switch k.Str {
			case "candidates":
				cands = v
			case "error":
				errv = v
			}
			return true
		})
		if errv.IsObject() {
			return engine.Message{}, fmt.Errorf("gemini: stream: event at offset %d is an error: %s", ev.Offset, errv.Raw)
		}
		chunks++
		var ferr error
		cands.ForEach(func(_, cand gjson.Result) bool {
			// The first candidate is the turn.
			ferr = a.feed(cand)
			return false
		})
		if ferr != nil {
			return engine.Message{}, fmt.Errorf("gemini: stream: event at offset %d: candidates.0.%w", ev.Offset, ferr)
		}
	}
	if chunks == 0 {
		return engine.Message{}, fmt.Errorf("gemini: stream: no chunks before the end at offset %d", cr.n)
	}
	if !a.finished {
		return engine.Message{}, fmt.Errorf("gemini: stream: ended at offset %d before a finishReason (truncated)", cr.n)
	}
	return a.message(), nil
}

// countingReader counts the bytes read, to name the offset where a stream
// ended.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
