package jsonscan

import (
	"strings"
	"testing"
)

// BenchmarkStringEnd scans a 1 MB body of prose with an escape every
// line.
func BenchmarkStringEnd(b *testing.B) {
	body := strings.Repeat(`reasoning about the problem, step by step\n`, 1<<20/43) + `"`
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if end, _ := StringEnd(body); end != len(body)-1 {
			b.Fatal(end)
		}
	}
}

// BenchmarkStringEndPlain scans a 1 MB body with no escape.
func BenchmarkStringEndPlain(b *testing.B) {
	body := strings.Repeat(`reasoning about the problem, step by step `, 1<<20/43) + `"`
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if end, _ := StringEnd(body); end != len(body)-1 {
			b.Fatal(end)
		}
	}
}

// BenchmarkPlainWords skips the words of the same body.
func BenchmarkPlainWords(b *testing.B) {
	body := strings.Repeat(`reasoning about the problem, step by step `, 1<<20/43) + `"`
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		PlainWords(body, false)
	}
}
