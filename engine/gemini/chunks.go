package gemini

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/replaycheck/replaycheck/engine/sse"
)

// A chunkSource yields the chunks of a streamGenerateContent response in
// either of the two framings Gemini sends: SSE data events (alt=sse), or,
// without alt=sse, one JSON array whose elements are the chunks
// (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent:
// "Generates a streamed response from the model given an input", the REST
// default being a JSON array delivered incrementally). The first byte that
// is not white space tells them apart: '[' is the array.
type chunkSource struct {
	sse *sse.Reader
	arr *json.Decoder
	// base is the number of white-space bytes before the array.
	base int64
	// open and closed say whether the array's brackets were read.
	open, closed bool
}

func newChunkSource(r io.Reader) *chunkSource {
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		b, _ := br.Peek(n)
		if len(b) < n || b[n-1] == '[' {
			if len(b) == n {
				br.Discard(n - 1)
				return &chunkSource{arr: json.NewDecoder(br), base: int64(n - 1)}
			}
			break
		}
		if c := b[n-1]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			break
		}
	}
	return &chunkSource{sse: sse.NewReader(br)}
}

// next returns the next chunk, with the byte offset where it starts, or
// io.EOF after the last.
func (s *chunkSource) next() (sse.RawEvent, error) {
	if s.sse != nil {
		return s.sse.NextRaw()
	}
	if !s.open {
		if _, err := s.arr.Token(); err != nil {
			return sse.RawEvent{}, fmt.Errorf("chunk array at offset %d: %w", s.Offset(), err)
		}
		s.open = true
	}
	if s.closed {
		return sse.RawEvent{}, io.EOF
	}
	if !s.arr.More() {
		if _, err := s.arr.Token(); err == io.EOF {
			return sse.RawEvent{}, fmt.Errorf("chunk array ended at offset %d before its closing bracket (truncated)", s.Offset())
		} else if err != nil {
			return sse.RawEvent{}, fmt.Errorf("chunk array at offset %d: %w", s.Offset(), err)
		}
		s.closed = true
		if _, err := s.arr.Token(); err != io.EOF {
			return sse.RawEvent{}, fmt.Errorf("chunk array: something follows its closing bracket at offset %d", s.Offset())
		}
		return sse.RawEvent{}, io.EOF
	}
	off := s.Offset()
	var raw json.RawMessage
	if err := s.arr.Decode(&raw); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return sse.RawEvent{}, fmt.Errorf("chunk array ended inside the chunk at offset %d (truncated)", off)
		}
		return sse.RawEvent{}, fmt.Errorf("chunk array: element at offset %d: %w", off, err)
	}
	return sse.RawEvent{Data: raw, Offset: off}, nil
}

// Offset returns the number of bytes of the stream read so far.
func (s *chunkSource) Offset() int64 {
	if s.sse != nil {
		return s.sse.Offset()
	}
	return s.base + s.arr.InputOffset()
}
