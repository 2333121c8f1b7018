package anthropic_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine/anthropic"
)

// wellNamed is the shape every stream error takes: the dialect, then the
// byte offset in play.
var wellNamed = regexp.MustCompile(`^anthropic: stream( ending)?[: ].*offset \d+`)

// FuzzCaptureStream feeds arbitrary bytes to the stream capture, SSE and
// Bedrock event-stream framing alike: it must never panic, and every error
// names the byte offset in play.
func FuzzCaptureStream(f *testing.F) {
	for _, tc := range wholeCases {
		s := streamOf(f, tc.body, 3)
		f.Add([]byte(s))
		f.Add([]byte(s[:len(s)/2]))
		f.Add(bedrockStream(f, s))
	}
	f.Add([]byte("data: {\"type\":\"content_block_delta\",\"index\":0}\n\n"))
	f.Add([]byte("\x00\x00\x00\x10\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := anthropic.Dialect{}.CaptureStream(bytes.NewReader(b))
		if err != nil {
			if !wellNamed.MatchString(err.Error()) {
				t.Fatalf("error without an offset: %v", err)
			}
			return
		}
		if m.Role != "assistant" || m.Native == nil {
			t.Fatalf("captured a non-turn: %+v", m)
		}
		if strings.Contains(string(b), "signature_delta") && len(m.Native.Blocks) == 0 {
			t.Logf("signature deltas without blocks")
		}
	})
}
