package gemini_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine/gemini"
)

var wellNamed = regexp.MustCompile(`^gemini: stream: .*offset \d+`)

// FuzzCaptureStream feeds arbitrary bytes to the SSE capture: it must
// never panic, and every error names the byte offset in play.
func FuzzCaptureStream(f *testing.F) {
	for _, tc := range wholeCases {
		s := streamOf(f, tc.body, 3)
		f.Add(s)
		f.Add(s[:len(s)/2])
	}
	f.Add("data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"args\":[]}}]}}]}\n\n")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := gemini.Dialect{}.CaptureStream(strings.NewReader(s))
		if err != nil {
			if !wellNamed.MatchString(err.Error()) {
				t.Fatalf("error without an offset: %v", err)
			}
			return
		}
		if m.Role != "assistant" {
			t.Fatalf("captured a non-turn: %+v", m)
		}
	})
}
