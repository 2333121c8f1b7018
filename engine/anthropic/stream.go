package anthropic

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/bedrock"
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
	br := bufio.NewReader(r)
	first, err := br.Peek(1)
	if err == nil && first[0] == 0 {
		return captureFrames(br)
	}
	var s streamState
	cr := &countingReader{r: br}
	rd := sse.NewReader(cr)
	for !s.stopped {
		ev, err := rd.Next()
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
	return s.message(cr.n)
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

// captureFrames reads Bedrock InvokeModelWithResponseStream frames.
func captureFrames(r io.Reader) (engine.Message, error) {
	var s streamState
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
		if err := s.event(string(data), f.Offset); err != nil {
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
}

// event applies one event's JSON data, read in one pass; off is its byte
// offset.
func (s *streamState) event(data string, off int64) error {
	if idx, typ, value, ok := fastDelta(data); ok {
		s.events++
		b, found := s.byIndex[idx]
		if !found {
			return fmt.Errorf("event at offset %d: delta for content block %d that never started", off, idx)
		}
		if err := b.apply(typ, value); err != nil {
			return fmt.Errorf("event at offset %d: %w", off, err)
		}
		return nil
	}
	if !gjson.Valid(data) {
		return fmt.Errorf("event at offset %d: data is not valid JSON", off)
	}
	var typ string
	var idx, delta, cb, errv gjson.Result
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
		}
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
	case "message_stop":
		s.stopped = true
	}
	return nil
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
