package bedrock

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/tidwall/gjson"
)

// Limits of one event-stream frame (AWS event-stream encoding: at most
// 128 KiB of headers and 16 MiB of payload). The SDK decoder checks the
// CRCs; these bounds are checked on the prelude before it reads a frame, so
// a corrupted length fails at once with its offset instead of swallowing
// the rest of the stream.
const (
	MaxFrameHeaders = 128 << 10
	MaxFramePayload = 16 << 20
	minFrameLen     = 16 // prelude (8) + prelude CRC (4) + message CRC (4)
)

// A Frame is one decoded event-stream message.
type Frame struct {
	// Offset is the byte offset of the frame's first byte in the stream.
	Offset int64
	// EventType is the ":event-type" header ("contentBlockDelta", "chunk").
	EventType string
	// Payload is the frame's payload; it is valid until the next call to
	// [FrameReader.Next].
	Payload []byte
}

// A FrameReader reads AWS event-stream frames (the binary framing of
// ConverseStream and InvokeModelWithResponseStream) with the SDK's
// decoder, and reports every error with the byte offset of the frame in
// play. Exception and error frames are returned as errors.
type FrameReader struct {
	r   *bufio.Reader
	off int64
	dec *eventstream.Decoder
	buf []byte
	err error
	one bytes.Reader // the frame in play, when it fits in r's buffer
}

// NewFrameReader returns a FrameReader reading from r.
func NewFrameReader(r io.Reader) *FrameReader {
	return &FrameReader{r: bufio.NewReaderSize(r, 64<<10), dec: eventstream.NewDecoder(), buf: make([]byte, 0, 4<<10)}
}

// countingReader counts the bytes the decoder consumes.
type countingReader struct {
	r *bufio.Reader
	n *int64
}

func (c countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	*c.n += int64(n)
	return n, err
}

// Offset returns the number of bytes consumed so far: the offset of the
// next frame.
func (fr *FrameReader) Offset() int64 { return fr.off }

// Next returns the next event frame. At a clean end of the stream it
// returns io.EOF; after any error it keeps returning that error.
func (fr *FrameReader) Next() (Frame, error) {
	if fr.err != nil {
		return Frame{}, fr.err
	}
	f, err := fr.next()
	if err != nil {
		fr.err = err
	}
	return f, err
}

func (fr *FrameReader) next() (Frame, error) {
	start := fr.off
	prelude, err := fr.r.Peek(8)
	switch {
	case len(prelude) == 0 && err == io.EOF:
		return Frame{}, io.EOF
	case len(prelude) < 8:
		return Frame{}, fmt.Errorf("frame at offset %d: truncated prelude (%d of 8 bytes)", start, len(prelude))
	}
	total := binary.BigEndian.Uint32(prelude[0:4])
	headers := binary.BigEndian.Uint32(prelude[4:8])
	switch {
	case total < minFrameLen:
		return Frame{}, fmt.Errorf("frame at offset %d: length %d is shorter than a frame (%d)", start, total, minFrameLen)
	case headers > MaxFrameHeaders:
		return Frame{}, fmt.Errorf("frame at offset %d: headers length %d exceeds %d", start, headers, MaxFrameHeaders)
	case headers > total-minFrameLen:
		return Frame{}, fmt.Errorf("frame at offset %d: headers length %d exceeds the frame length %d", start, headers, total)
	case total-minFrameLen-headers > MaxFramePayload:
		return Frame{}, fmt.Errorf("frame at offset %d: payload length %d exceeds %d", start, total-minFrameLen-headers, MaxFramePayload)
	}
	// A frame that fits in the buffer is decoded from it in place, so the
	// decoder's many small reads cost no more than a slice each; a larger
	// one streams through.
	var msg eventstream.Message
	if int(total) <= fr.r.Size() {
		whole, _ := fr.r.Peek(int(total))
		fr.one.Reset(whole)
		msg, err = fr.dec.Decode(&fr.one, fr.buf)
		read := int(fr.one.Size()) - fr.one.Len()
		fr.r.Discard(read)
		fr.off += int64(read)
	} else {
		msg, err = fr.dec.Decode(countingReader{fr.r, &fr.off}, fr.buf)
	}
	if err != nil {
		var ce eventstream.ChecksumError
		switch {
		case errors.As(err, &ce):
			return Frame{}, fmt.Errorf("frame at offset %d: %w", start, err)
		case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			return Frame{}, fmt.Errorf("frame at offset %d: truncated frame (%d of %d bytes)", start, fr.off-start, total)
		}
		return Frame{}, fmt.Errorf("frame at offset %d: %w", start, err)
	}
	if fr.off-start != int64(total) {
		return Frame{}, fmt.Errorf("frame at offset %d: decoder read %d bytes of a %d-byte frame", start, fr.off-start, total)
	}
	if cap(msg.Payload) > cap(fr.buf) {
		fr.buf = msg.Payload[:0]
	}
	f := Frame{Offset: start, EventType: header(msg.Headers, ":event-type"), Payload: msg.Payload}
	switch mt := header(msg.Headers, ":message-type"); mt {
	case "", "event":
		return f, nil
	case "exception":
		return Frame{}, fmt.Errorf("frame at offset %d: %s: %s", start, header(msg.Headers, ":exception-type"), message(msg.Payload))
	case "error":
		return Frame{}, fmt.Errorf("frame at offset %d: %s: %s", start, header(msg.Headers, ":error-code"), header(msg.Headers, ":error-message"))
	default:
		return Frame{}, fmt.Errorf("frame at offset %d: unknown message type %q", start, mt)
	}
}

func header(hs eventstream.Headers, name string) string {
	if v := hs.Get(name); v != nil {
		return v.String()
	}
	return ""
}

// message returns the "message" of an exception payload, or the payload.
func message(payload []byte) string {
	if m := gjson.GetBytes(payload, "message"); m.Type == gjson.String {
		return m.Str
	}
	return string(payload)
}
