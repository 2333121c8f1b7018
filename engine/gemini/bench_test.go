package gemini_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine/gemini"
	"github.com/replaycheck/replaycheck/engine/internal/linebench"
)

// bigStream builds a ~10 MB streamGenerateContent?alt=sse body framed as
// Gemini frames it (usage counts that grow on every chunk, model version,
// response id): thought summaries, then the answer, in many small chunks,
// and a trailing signed empty text part.
func bigStream() []byte {
	var b bytes.Buffer
	thought := strings.Repeat("thinking about it ", 4)
	usage := func(i int) string {
		return fmt.Sprintf(`"usageMetadata": {"promptTokenCount": 34,"totalTokenCount": %d,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 34}],"thoughtsTokenCount": %d},"modelVersion": "gemini-2.5-pro","responseId": "beHBaJfEMIi-qtsP3769-Q8"`, 34+i, i)
	}
	for i := 0; b.Len() < 5<<20; i++ {
		fmt.Fprintf(&b, "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": %q,\"thought\": true}],\"role\": \"model\"},\"index\": 0}],%s}\r\n\r\n", thought, usage(i))
	}
	for i := 0; b.Len() < 10<<20; i++ {
		fmt.Fprintf(&b, "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": %q}],\"role\": \"model\"},\"index\": 0}],%s}\r\n\r\n", "the answer, word by word ", usage(i))
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
