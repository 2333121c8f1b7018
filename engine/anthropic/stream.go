package anthropic

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/bedrock"
	"github.com/replaycheck/replaycheck/engine/internal/layout"
	"github.com/replaycheck/replaycheck/engine/sse"
	"github.com/tidwall/gjson"
)

// CaptureStream reads a streamed Messages response and returns the stored
// assistant message; it equals [Dialect.Capture] of the same response
// whole. The stream is SSE (Anthropic, Vertex, Foundry, compatible
// endpoints) or, on Bedrock InvokeModelWithResponseStream, AWS event-stream
// frames whose "chunk" events carry the same events base64-encoded; a
// stream starting with a NUL byte (an event-stream prelude) is read as
// frames. Blocks accumulate by index: thinking_delta and text_delta
// concatenate, signature_delta lands on its block, redacted_thinking
// arrives whole in content_block_start, input_json_delta builds tool input.
// A stream that ends before message_stop is an error, so a block whose
// signature never arrived is never stored. Errors name the byte offset of
// the event in play.
func (Dialect) CaptureStream(r io.Reader) (engine.Message, error) {
	return captureStream(r, newStreamState())
}

// captureStream is CaptureStream into s, which may read by layout or not.
func captureStream(r io.Reader, s *streamState) (engine.Message, error) {
	br := bufio.NewReader(r)
	first, err := br.Peek(1)
	if err == nil && first[0] == 0 {
		return captureFrames(br, s)
	}
	rd := sse.NewReader(br)
	for !s.stopped {
		ev, err := rd.NextRaw()
		if err == io.EOF {
			break
		}
		if err != nil {
			return engine.Message{}, fmt.Errorf("anthropic: stream: %w", err)
		}
		if err := s.event(ev.Data, ev.Offset); err != nil {
			return engine.Message{}, fmt.Errorf("anthropic: stream: %w", err)
		}
	}
	return s.message(rd.Offset())
}

// captureFrames reads Bedrock InvokeModelWithResponseStream frames into s.
func captureFrames(r io.Reader, s *streamState) (engine.Message, error) {
	fr := bedrock.NewFrameReader(r)
	for !s.stopped {
		f, err := fr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return engine.Message{}, fmt.Errorf("anthropic: stream: %w", err)
		}
		if f.EventType != "chunk" {
			continue
		}
		if !gjson.ValidBytes(f.Payload) {
			return engine.Message{}, fmt.Errorf("anthropic: stream: frame at offset %d: payload is not valid JSON", f.Offset)
		}
		data, err := base64.StdEncoding.DecodeString(gjson.GetBytes(f.Payload, "bytes").Str)
		if err != nil {
			return engine.Message{}, fmt.Errorf("anthropic: stream: frame at offset %d: chunk bytes: %w", f.Offset, err)
		}
		if err := s.event(data, f.Offset); err != nil {
			return engine.Message{}, fmt.Errorf("anthropic: stream: %w", err)
		}
	}
	return s.message(fr.Offset())
}

// streamState follows the events of one streamed message.
type streamState struct {
	blocks  []*block
	byIndex map[int64]*block
	events  int
	stopped bool
	known   *layout.Cache[deltaOf] // nil: every event takes the general path
}

// eventReads are the top-level keys of an event the capture reads.
var eventReads = []string{"type", "index", "delta", "content_block", "error"}

// newStreamState returns the state of a stream read with layouts.
func newStreamState() *streamState {
	return &streamState{known: layout.NewCache[deltaOf](eventReads...)}
}

// A deltaOf is what a content_block_delta layout carries: its block (which
// a stream never replaces) and its delta type.
type deltaOf struct {
	block *block
	typ   string
}

// event applies one event's JSON data, read in one pass; off is its byte
// offset. raw is only read during the call.
func (s *streamState) event(raw []byte, off int64) error {
	if s.known != nil {
		if d, piece, ok := s.known.Match(raw); ok {
			s.events++
			if err := d.block.applyPiece(d.typ, piece); err != nil {
				return fmt.Errorf("event at offset %d: %w", off, err)
			}
			return nil
		}
	}
	data := string(raw)
	if !gjson.Valid(data) {
		return fmt.Errorf("event at offset %d: data is not valid JSON", off)
	}
	var typ string
	var idx, delta, cb, errv gjson.Result
	reads := 0
	gjson.Parse(data).ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "type":
			typ = v.Str
		case "index":
			idx = v
		case "delta":
			delta = v
		case "content_block":
			cb = v
		case "error":
			errv = v
		default:
			return true
		}
		reads++
		return true
	})
	s.events++
	switch typ {
	case "error":
		return fmt.Errorf("event at offset %d is an error: %s", off, errv.Raw)
	case "content_block_start":
		if !idx.Exists() || !cb.IsObject() {
			return fmt.Errorf("event at offset %d: content_block_start without index or content_block", off)
		}
		if _, dup := s.byIndex[idx.Int()]; dup {
			return fmt.Errorf("event at offset %d: content block %d started twice", off, idx.Int())
		}
		b := newBlock(cb)
		if s.byIndex == nil {
			s.byIndex = map[int64]*block{}
		}
		s.byIndex[idx.Int()] = b
		s.blocks = append(s.blocks, b)
	case "content_block_delta":
		b, ok := s.byIndex[idx.Int()]
		if !ok || !idx.Exists() {
			return fmt.Errorf("event at offset %d: delta for content block %s that never started", off, idx.Raw)
		}
		if err := b.delta(delta); err != nil {
			return fmt.Errorf("event at offset %d: %w", off, err)
		}
		if s.known != nil && reads == 3 {
			// type, index and delta once each, nothing else read
			if dtyp, value, ok := deltaValue(delta); ok {
				s.known.Learn(data, value, delta.Index+len(delta.Raw), deltaOf{b, dtyp})
			}
		}
	case "message_stop":
		s.stopped = true
	}
	return nil
}

// deltaValues names the key of each delta type's string value.
var deltaValues = map[string]string{
	"text_delta":       "text",
	"thinking_delta":   "thinking",
	"signature_delta":  "signature",
	"input_json_delta": "partial_json",
}

// deltaValue returns the type and the string value of a delta that holds
// one type of a known kind and one value for it: all [block.delta] reads.
func deltaValue(d gjson.Result) (typ string, value gjson.Result, ok bool) {
	types, values := 0, 0
	d.ForEach(func(k, v gjson.Result) bool {
		if k.Str == "type" {
			typ, types = v.Str, types+1
		}
		return true
	})
	key, known := deltaValues[typ]
	if types != 1 || !known {
		return "", gjson.Result{}, false
	}
	d.ForEach(func(k, v gjson.Result) bool {
		if k.Str == key {
			value, values = v, values+1
		}
		return true
	})
	if values != 1 || value.Type != gjson.String {
		return "", gjson.Result{}, false
	}
	return typ, value, true
}

// message returns the stored message; end is the offset where the stream
// ended, for the error of a truncated stream.
func (s *streamState) message(end int64) (engine.Message, error) {
	if s.events == 0 {
		return engine.Message{}, fmt.Errorf("anthropic: stream: no events before the end at offset %d", end)
	}
	if !s.stopped {
		return engine.Message{}, fmt.Errorf("anthropic: stream: ended at offset %d before message_stop (truncated)", end)
	}
	m, err := turn(s.blocks)
	if err != nil {
		return engine.Message{}, fmt.Errorf("anthropic: stream ending at offset %d: %w", end, err)
	}
	return m, nil
}
