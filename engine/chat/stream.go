package chat

import (
	"bytes"
	"fmt"
	"io"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/internal/layout"
	"github.com/replaycheck/replaycheck/engine/sse"
	"github.com/tidwall/gjson"
)

// CaptureStream reads an SSE stream of chat.completion.chunk events and
// returns the stored assistant message; it equals [Dialect.Capture] of the
// same response whole. Errors name the byte offset of the event in play.
func (Dialect) CaptureStream(r io.Reader) (engine.Message, error) {
	return captureStream(r, layout.NewCache[string](chunkReads...))
}

// captureStream is CaptureStream with the chunk layouts it may learn and
// match; with none, every chunk takes the general path.
func captureStream(r io.Reader, known *layout.Cache[string]) (engine.Message, error) {
	var a accumulator
	rd := sse.NewReader(r)
	chunks, done := 0, false
	for {
		ev, err := rd.NextRaw()
		if err == io.EOF {
			break
		}
		if err != nil {
			return engine.Message{}, fmt.Errorf("chat: stream: %w", err)
		}
		raw := bytes.TrimSpace(ev.Data)
		if string(raw) == "[DONE]" {
			done = true
			break
		}
		chunks++
		if known != nil {
			if field, piece, ok := known.Match(raw); ok {
				piece.WriteTo(a.text(field))
				continue
			}
		}
		data := string(raw)
		if !gjson.Valid(data) {
			return engine.Message{}, fmt.Errorf("chat: stream: event at offset %d: data is not valid JSON", ev.Offset)
		}
		c := a.feedChunk(data)
		if c.failure != "" {
			return engine.Message{}, fmt.Errorf("chat: stream: event at offset %d is an error: %s", ev.Offset, c.failure)
		}
		if known != nil && c.piece.Exists() {
			known.Learn(data, c.piece, c.choicesEnd, c.field)
		}
	}
	if chunks == 0 {
		return engine.Message{}, fmt.Errorf("chat: stream: no chunk events")
	}
	// A stream ends with a finish_reason, then [DONE]; one with neither was
	// cut short, and its message would be silently incomplete.
	if !done && !a.finished {
		return engine.Message{}, fmt.Errorf("chat: stream: ended at offset %d before a finish_reason or [DONE] (truncated)", rd.Offset())
	}
	return a.message(), nil
}

// chunkReads are the top-level keys of a chunk the capture reads.
var chunkReads = []string{"choices", "error"}

// A chunk is what feedChunk found in one chunk.
type chunk struct {
	failure string // the chunk's error object, if it is one
	// When the chunk's only effect is one piece of text: the string
	// holding it, its field, and the offset just after the choices array.
	piece      gjson.Result
	field      string
	choicesEnd int
}

// feedChunk applies one valid chunk to the message: the delta of choice 0.
func (a *accumulator) feedChunk(data string) chunk {
	var c chunk
	choicesKeys, choices := 0, 0
	var only gjson.Result // the delta of the only choice, if it is choice 0
	gjson.Parse(data).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "error":
			c.failure = v.Raw
			return false
		case "choices":
			choicesKeys++
			c.choicesEnd = v.Index + len(v.Raw)
			v.ForEach(func(_, ch gjson.Result) bool {
				choices++
				var delta, finish gjson.Result
				index, deltas := int64(0), 0
				ch.ForEach(func(ck, cv gjson.Result) bool {
					switch ck.Str {
					case "index":
						index = cv.Int()
					case "delta":
						delta, deltas = cv, deltas+1
					case "finish_reason":
						finish = cv
					}
					return true
				})
				if index == 0 {
					a.finished = a.finished || (finish.Type == gjson.String && finish.Str != "")
					a.feed(delta)
					if deltas == 1 {
						only = delta
					}
				}
				return true
			})
		}
		return true
	})
	if c.failure == "" && choicesKeys == 1 && choices == 1 && only.Exists() {
		c.field, c.piece = textPiece(only)
	}
	return c
}

// textPiece returns the field and string of the one piece of text a delta
// adds, when that is all [accumulator.feed] takes from it: every other
// member is one it ignores, a null, or an empty string. Otherwise the
// piece does not exist.
func textPiece(delta gjson.Result) (field string, piece gjson.Result) {
	pieces := 0
	delta.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "content", "reasoning_content", "reasoning", "reasoning_text":
			switch {
			case v.Type == gjson.String && v.Str != "":
				field, piece = k.Str, v
				pieces++
			case v.Type == gjson.String, v.Type == gjson.Null:
			case k.Str == "content" && v.IsArray():
				pieces += 2 // content parts: not a text piece
			}
		case "reasoning_details", "extra_content", "reasoning_opaque", "tool_calls":
			if v.Type != gjson.Null {
				pieces += 2
			}
		}
		return pieces <= 1
	})
	if pieces != 1 {
		return "", gjson.Result{}
	}
	return field, piece
}
