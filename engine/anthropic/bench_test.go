package anthropic_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine/anthropic"
	"github.com/replaycheck/replaycheck/engine/internal/linebench"
)

// bigStream builds a ~10 MB Messages stream: a signed thinking block and a
// text block, each delivered in many small deltas, and a tool call.
func bigStream() []byte {
	var b bytes.Buffer
	b.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg\",\"role\":\"assistant\",\"content\":[]}}\n\n")
	b.WriteString("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}}\n\n")
	piece := strings.Repeat("reasoning about the problem ", 3)
	for b.Len() < 6<<20 {
		fmt.Fprintf(&b, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":%q}}\n\n", piece)
	}
	fmt.Fprintf(&b, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":%q}}\n\n", strings.Repeat("Ab+/", 200))
	b.WriteString("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n")
	b.WriteString("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
	for b.Len() < 10<<20 {
		fmt.Fprintf(&b, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":%q}}\n\n", "the answer, word by word ")
	}
	b.WriteString("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n")
	b.WriteString("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	return b.Bytes()
}

// BenchmarkCaptureStream measures capture of a 10 MB stream; compare with
// BenchmarkReadBufio (DESIGN.md budget: within 2x).
func BenchmarkCaptureStream(b *testing.B) {
	data := bigStream()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (anthropic.Dialect{}).CaptureStream(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadBufio is the budget's baseline: the same bytes read line by
// line through bufio, each line as a string (what any consumer of the
// lines holds).
func BenchmarkReadBufio(b *testing.B) {
	linebench.ReadStrings(b, bigStream())
}

// BenchmarkReadBufioSlices is the floor: the same bytes read line by line
// through bufio without keeping any line.
func BenchmarkReadBufioSlices(b *testing.B) {
	linebench.ReadSlices(b, bigStream())
}
