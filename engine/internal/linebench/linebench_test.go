package linebench

import (
	"strings"
	"testing"
)

// TestBaselines runs each baseline once over a few lines and checks it
// ran and accounted every byte.
func TestBaselines(t *testing.T) {
	data := []byte(strings.Repeat("data: {\"x\":1}\n\n", 100) + "no newline at the end")
	for _, tc := range []struct {
		reason string
		bench  func(*testing.B, []byte)
	}{
		{"ReadStrings reads every line as a string", ReadStrings},
		{"ReadSlices reads every line as a slice", ReadSlices},
	} {
		r := testing.Benchmark(func(b *testing.B) { tc.bench(b, data) })
		if r.N == 0 || r.Bytes != int64(len(data)) {
			t.Errorf("%s: %d runs of %d bytes, want at least one run of %d bytes", tc.reason, r.N, r.Bytes, len(data))
		}
	}
}
