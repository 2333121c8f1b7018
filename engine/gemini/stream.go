package gemini

import (
	"fmt"
	"io"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/internal/layout"
	"github.com/tidwall/gjson"
)

// CaptureStream reads a streamGenerateContent response and returns the
// stored assistant message; it equals [Dialect.Capture] of the same
// response whole. With alt=sse the chunks are SSE data events; without
// it Gemini sends them as one JSON array, [chunk, chunk, …], which is read
// element by element as the same stream (see [chunkSource]). Each chunk's
// first candidate is fed in order; the
// signature of a trailing empty text part lands in the record. A stream
// that ends before a finishReason is an error (truncated); errors name the
// byte offset of the event in play.
func (Dialect) CaptureStream(r io.Reader) (engine.Message, error) {
	return captureStream(r, layout.NewCache[bool](chunkReads...))
}

// chunkReads are the top-level keys of a chunk the capture reads.
var chunkReads = []string{"candidates", "error"}

// captureStream is CaptureStream with the chunk layouts it may learn and
// match (tagged with whether the text is a thought); with none, every
// chunk takes the general path.
func captureStream(r io.Reader, known *layout.Cache[bool]) (engine.Message, error) {
	var a accumulator
	rd := newChunkSource(r)
	chunks := 0
	for {
		ev, err := rd.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return engine.Message{}, fmt.Errorf("gemini: stream: %w", err)
		}
		chunks++
		if known != nil {
			if thought, piece, ok := known.Match(ev.Data); ok {
				if thought {
					piece.WriteTo(&a.thoughts)
				} else {
					piece.WriteTo(&a.text)
				}
				continue
			}
		}
		data := string(ev.Data)
		if !gjson.Valid(data) {
			return engine.Message{}, fmt.Errorf("gemini: stream: event at offset %d: data is not valid JSON", ev.Offset)
		}
		var cands, errv gjson.Result
		candsKeys := 0
		gjson.Parse(data).ForEach(func(k, v gjson.Result) bool {
			switch k.Str {
			case "candidates":
				cands, candsKeys = v, candsKeys+1
			case "error":
				errv = v
			}
			return true
		})
		if errv.IsObject() {
			return engine.Message{}, fmt.Errorf("gemini: stream: event at offset %d is an error: %s", ev.Offset, errv.Raw)
		}
		var ferr error
		n := 0
		var first gjson.Result
		cands.ForEach(func(_, cand gjson.Result) bool {
			if n++; n == 1 {
				// The first candidate is the turn.
				first = cand
				ferr = a.feed(cand)
			}
			return ferr == nil
		})
		if ferr != nil {
			return engine.Message{}, fmt.Errorf("gemini: stream: event at offset %d: candidates.0.%w", ev.Offset, ferr)
		}
		if known != nil && !errv.Exists() && candsKeys == 1 && n == 1 {
			if text, thought, ok := onlyText(first); ok {
				known.Learn(data, text, cands.Index+len(cands.Raw), thought)
			}
		}
	}
	if chunks == 0 {
		return engine.Message{}, fmt.Errorf("gemini: stream: no chunks before the end at offset %d", rd.Offset())
	}
	if !a.finished {
		return engine.Message{}, fmt.Errorf("gemini: stream: ended at offset %d before a finishReason (truncated)", rd.Offset())
	}
	return a.message(), nil
}

// onlyText returns the text string of a candidate that holds one text part
// and nothing else [accumulator.feed] takes: no finishReason, one content
// with one parts array of one part whose keys are "text" and, at most
// once, "thought". thought is how feed reads the part.
func onlyText(cand gjson.Result) (text gjson.Result, thought, ok bool) {
	var parts gjson.Result
	contents, partsKeys := 0, 0
	ok = true
	cand.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "finishReason":
			ok = false
		case "content":
			contents++
			v.ForEach(func(ck, cv gjson.Result) bool {
				if ck.Str == "parts" {
					parts, partsKeys = cv, partsKeys+1
				}
				return true
			})
		}
		return ok
	})
	if !ok || contents != 1 || partsKeys != 1 || !parts.IsArray() {
		return gjson.Result{}, false, false
	}
	n, texts, thoughts := 0, 0, 0
	parts.ForEach(func(_, p gjson.Result) bool {
		n++
		p.ForEach(func(k, v gjson.Result) bool {
			switch k.Str {
			case "text":
				text, texts = v, texts+1
			case "thought":
				thought, thoughts = v.Bool(), thoughts+1
			default:
				ok = false
			}
			return ok
		})
		return ok
	})
	if !ok || n != 1 || texts != 1 || thoughts > 1 || text.Type != gjson.String {
		return gjson.Result{}, false, false
	}
	return text, thought, true
}
