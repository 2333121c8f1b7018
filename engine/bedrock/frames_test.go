package bedrock_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/replaycheck/replaycheck/engine/bedrock"
)

func TestFrameReader(t *testing.T) {
	one := encodeFrames(t, []streamEvent{{"messageStart", `{"role":"assistant"}`}})
	two := encodeFrames(t, []streamEvent{{"messageStart", `{"role":"assistant"}`}, {"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"hi"}}`}})
	at := len(one) // the second frame's offset
	// A frame larger than the reader's buffer streams through the decoder
	// instead of being decoded in place.
	big := encodeFrames(t, []streamEvent{{"messageStart", `{"role":"assistant","p":"` + strings.Repeat("x", 100<<10) + `"}`}})
	bigThenOne := append(bytes.Clone(big), one...)
	flip := func(b []byte, i int) []byte {
		c := bytes.Clone(b)
		c[i] ^= 0xff
		return c
	}
	withLens := func(total, headers uint32) []byte {
		c := bytes.Clone(one)
		binary.BigEndian.PutUint32(c[0:4], total)
		binary.BigEndian.PutUint32(c[4:8], headers)
		return c
	}
	tests := []struct {
		name   string
		stream []byte
		frames int
		want   string
		reason string
	}{
		{"clean", two, 2, "", "two frames, then a clean end"},
		{"large", bigThenOne, 2, "", "a frame larger than the buffer, then a small one"},
		{"large-truncated", big[:len(big)-10], 0, "frame at offset 0: truncated frame", "a large frame cut short"},
		{"truncated-prelude", two[:at+5], 1, fmt.Sprintf("frame at offset %d: truncated prelude (5 of 8 bytes)", at), "a prelude cut short"},
		{"truncated-payload", two[:len(two)-6], 1, fmt.Sprintf("frame at offset %d: truncated frame", at), "a frame cut inside its payload"},
		{"prelude-crc", flip(two, at+9), 1, fmt.Sprintf("frame at offset %d: message checksum mismatch", at), "a corrupted prelude CRC"},
		{"message-crc", flip(two, len(two)-1), 1, fmt.Sprintf("frame at offset %d: message checksum mismatch", at), "a corrupted message CRC"},
		{"payload-flip", flip(one, len(one)-8), 0, "frame at offset 0: message checksum mismatch", "a corrupted payload byte fails the CRC"},
		{"oversized-headers", withLens(1<<20, 200<<10), 0, "frame at offset 0: headers length 204800 exceeds 131072", "headers beyond the event-stream limit"},
		{"headers-beyond-frame", withLens(64, 100), 0, "frame at offset 0: headers length 100 exceeds the frame length 64", "headers longer than their frame"},
		{"oversized-payload", withLens(32<<20, 0), 0, "frame at offset 0: payload length 33554416 exceeds 16777216", "a payload beyond the limit"},
		{"short-length", withLens(4, 0), 0, "frame at offset 0: length 4 is shorter than a frame (16)", "a length below the minimum frame"},
		{"error-frame", errorFrame(t), 0, "frame at offset 0: ThrottlingException: Too many requests", "an error frame carries its code and message"},
		{"exception-frame", exceptionFrame(t, "modelStreamErrorException", `{"message":"boom"}`), 0, "frame at offset 0: modelStreamErrorException: boom", "an exception frame"},
	}
	for _, tc := range tests {
		fr := bedrock.NewFrameReader(bytes.NewReader(tc.stream))
		second := int64(at)
		if tc.name == "large" {
			second = int64(len(big))
		}
		n := 0
		var err error
		for {
			var f bedrock.Frame
			f, err = fr.Next()
			if err != nil {
				break
			}
			if n == 1 && f.Offset != second {
				t.Errorf("%s: second frame offset %d, want %d", tc.name, f.Offset, second)
			}
			n++
		}
		if n != tc.frames {
			t.Errorf("%s: %s: read %d frames, want %d", tc.name, tc.reason, n, tc.frames)
		}
		switch {
		case tc.want == "" && err != io.EOF:
			t.Errorf("%s: %s: error %v, want io.EOF", tc.name, tc.reason, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %s: error %v, want %q", tc.name, tc.reason, err, tc.want)
		}
		if _, again := fr.Next(); again == nil || again.Error() != err.Error() {
			t.Errorf("%s: the error is not sticky: %v then %v", tc.name, err, again)
		}
	}
}

func errorFrame(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	var hs eventstream.Headers
	hs.Set(":message-type", eventstream.StringValue("error"))
	hs.Set(":error-code", eventstream.StringValue("ThrottlingException"))
	hs.Set(":error-message", eventstream.StringValue("Too many requests"))
	if err := eventstream.NewEncoder().Encode(&buf, eventstream.Message{Headers: hs}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
