package textbuf

import (
	"strings"
	"testing"
)

func TestBuffer(t *testing.T) {
	long := strings.Repeat("0123456789", 300_000) // 3 MB: several chunks, one over the cap
	tests := []struct {
		pieces []string
		reason string
	}{
		{nil, "an empty buffer is the empty string"},
		{[]string{"a", "", "bc"}, "small pieces join in order; empty pieces add nothing"},
		{[]string{strings.Repeat("x", 255), "yz"}, "a piece crossing the first chunk's end is split, not lost"},
		{[]string{long}, "a piece larger than the chunk cap spans chunks"},
		{[]string{"head ", long, " tail", long[:7]}, "large and small pieces mix"},
		{[]string{"é✓", "\x00\xff"}, "bytes are kept as they are, multi-byte runes and invalid UTF-8 included"},
	}
	for _, tt := range tests {
		for _, asBytes := range []bool{false, true} {
			var b Buffer
			for _, p := range tt.pieces {
				if asBytes {
					b.Write([]byte(p))
				} else {
					b.WriteString(p)
				}
			}
			want := strings.Join(tt.pieces, "")
			if got := b.String(); got != want || b.Len() != len(want) {
				t.Errorf("%s (bytes %v): got %d bytes (Len %d), want %d", tt.reason, asBytes, len(got), b.Len(), len(want))
			}
		}
	}
}

func TestBufferNeverMovesWhatItHolds(t *testing.T) {
	var b Buffer
	b.WriteString("first")
	first := &b.chunks[0][0]
	for range 10_000 {
		b.WriteString("reasoning about the problem ")
	}
	if &b.chunks[0][0] != first {
		t.Error("growing the buffer moved its first chunk")
	}
	for i, c := range b.chunks {
		if cap(c) > maxChunk {
			t.Errorf("chunk %d has capacity %d, over the cap %d", i, cap(c), maxChunk)
		}
	}
}

func FuzzBuffer(f *testing.F) {
	f.Add([]byte("abc"), uint16(1))
	f.Fuzz(func(t *testing.T, data []byte, step uint16) {
		n := 1 + int(step)%600
		var b Buffer
		for i := 0; i < len(data); i += n {
			b.Write(data[i:min(i+n, len(data))])
		}
		if b.String() != string(data) {
			t.Fatalf("pieces of %d bytes did not join back", n)
		}
	})
}
