package bedrock_test

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/replaycheck/replaycheck/engine/bedrock"
)

var wellNamed = regexp.MustCompile(`^bedrock: stream( ending)?[: ].*offset \d+`)

// FuzzCaptureStream feeds arbitrary bytes to the ConverseStream capture:
// truncated frames, corrupted CRCs, oversized lengths and garbage payloads
// must give an error naming the byte offset, never a panic.
func FuzzCaptureStream(f *testing.F) {
	for _, tc := range wholeCases {
		frames := encodeFrames(f, converseStreamOf(f, tc.body, 3))
		f.Add(frames)
		f.Add(frames[:len(frames)/2])
		corrupt := bytes.Clone(frames)
		corrupt[len(corrupt)/3] ^= 0x40
		f.Add(corrupt)
	}
	f.Add(exceptionFrame(f, "validationException", `{"message":"x"}`))
	f.Add([]byte{0, 0, 0, 0x20, 0, 2, 0, 0})                // headers longer than the frame
	f.Add([]byte{0, 0x10, 0, 0, 0, 3, 0x20, 0, 0, 0, 0, 0}) // oversized headers (204800 bytes)
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := bedrock.Dialect{}.CaptureStream(bytes.NewReader(b))
		if err != nil {
			if !wellNamed.MatchString(err.Error()) {
				t.Fatalf("error without an offset: %v", err)
			}
			return
		}
		if m.Role != "assistant" || m.Native == nil {
			t.Fatalf("captured a non-turn: %+v", m)
		}
	})
}
