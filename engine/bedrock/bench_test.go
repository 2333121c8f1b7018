package bedrock_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/replaycheck/replaycheck/engine/bedrock"
)

// bigStream builds ~10 MB of ConverseStream frames: a signed reasoning
// block and a text block delivered in many small deltas, each padded with
// a "p" member of varying length as the service pads them.
func bigStream(tb testing.TB) []byte {
	var ev []streamEvent
	size := 0
	add := func(typ, payload string) {
		ev = append(ev, streamEvent{typ, payload})
		size += len(payload) + 100 // payload plus headers and framing
	}
	add("messageStart", `{"role":"assistant"}`)
	piece := strings.Repeat("reasoning about the problem ", 3)
	const pad = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	for i := 0; size < 6<<20; i++ {
		add("contentBlockDelta", fmt.Sprintf(`{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":%q}},"p":%q}`, piece, pad[:1+i%len(pad)]))
	}
	add("contentBlockDelta", fmt.Sprintf(`{"contentBlockIndex":0,"delta":{"reasoningContent":{"signature":%q}}}`, strings.Repeat("Ab+/", 200)))
	add("contentBlockStop", `{"contentBlockIndex":0}`)
	for i := 0; size < 10<<20; i++ {
		add("contentBlockDelta", fmt.Sprintf(`{"contentBlockIndex":1,"delta":{"text":"the answer, word by word "},"p":%q}`, pad[:1+i%len(pad)]))
	}
	add("contentBlockStop", `{"contentBlockIndex":1}`)
	add("messageStop", `{"stopReason":"end_turn"}`)
	return encodeFrames(tb, ev)
}

// BenchmarkCaptureStream measures capture of a 10 MB ConverseStream. Its
// budget is 1.5x BenchmarkDecodeFramesBufio: an event stream is read by
// decoding its frames, which the engine must do with the AWS event-stream
// package, so that decoder is the floor (it alone costs ten times the raw
// copy of BenchmarkReadBufio).
func BenchmarkCaptureStream(b *testing.B) {
	data := bigStream(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (bedrock.Dialect{}).CaptureStream(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadBufio splits the same frames by their length prefix through
// bufio, each frame copied out (no CRC, no headers, no JSON): the cost of
// the bytes alone, for reference.
func BenchmarkReadBufio(b *testing.B) {
	data := bigStream(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := bufio.NewReader(bytes.NewReader(data))
		n := 0
		for {
			prelude, err := r.Peek(4)
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			frame := make([]byte, binary.BigEndian.Uint32(prelude))
			if _, err := io.ReadFull(r, frame); err != nil {
				b.Fatal(err)
			}
			n += len(frame)
		}
		if n != len(data) {
			b.Fatal("short read")
		}
	}
}

// BenchmarkDecodeFramesBufio is the budget's baseline: the same frames read
// through bufio and decoded by the AWS event-stream package (headers,
// CRCs), as any client of ConverseStream reads them, with no capture work.
func BenchmarkDecodeFramesBufio(b *testing.B) {
	data := bigStream(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		dec := eventstream.NewDecoder()
		r := bufio.NewReader(bytes.NewReader(data))
		buf := make([]byte, 0, 4<<10)
		for {
			if _, err := r.Peek(1); err == io.EOF {
				break
			}
			if _, err := dec.Decode(r, buf); err != nil {
				b.Fatal(err)
			}
		}
	}
}
