package gemini_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine/gemini"
	"github.com/replaycheck/replaycheck/engine/internal/linebench"
)

// bigStream builds a ~10 MB streamGenerateContent?alt=sse body: thought
// summaries, then the answer, in many small chunks, and a trailing signed
// empty text part.
func bigStream() []byte {
	var b bytes.Buffer
	thought := strings.Repeat("thinking about it ", 4)
	for b.Len() < 5<<20 {
		fmt.Fprintf(&b, "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": %q,\"thought\": true}],\"role\": \"model\"},\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 34}}\r\n\r\n", thought)
	}
	for b.Len() < 10<<20 {
		fmt.Fprintf(&b, "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": %q}],\"role\": \"model\"},\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 34}}\r\n\r\n", "the answer, word by word ")
	}
	fmt.Fprintf(&b, "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"\",\"thoughtSignature\": %q}],\"role\": \"model\"},\"finishReason\": \"STOP\",\"index\": 0}]}\r\n\r\n", strings.Repeat("Ab+/", 300))
	return b.Bytes()
}

// BenchmarkCaptureStream measures capture of a 10 MB stream; compare with
// BenchmarkReadBufio (DESIGN.md budget: within 2x).
func BenchmarkCaptureStream(b *testing.B) {
	data := bigStream()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (gemini.Dialect{}).CaptureStream(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadBufio is the budget's baseline: the same bytes read line by
// line through bufio, each line as a string.
func BenchmarkReadBufio(b *testing.B) {
	linebench.ReadStrings(b, bigStream())
}
