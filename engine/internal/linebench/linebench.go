package linebench

import (
	"bufio"
	"bytes"
	"io"
	"testing"
)

// ReadStrings benchmarks reading data line by line through bufio, each
// line as a string (what any consumer of the lines holds): the budget's
// baseline.
func ReadStrings(b *testing.B, data []byte) {
	run(b, data, func(r *bufio.Reader) (int, error) {
		line, err := r.ReadString('\n')
		return len(line), err
	})
}

// ReadSlices benchmarks reading data line by line through bufio without
// keeping any line: the floor.
func ReadSlices(b *testing.B, data []byte) {
	run(b, data, func(r *bufio.Reader) (int, error) {
		line, err := r.ReadSlice('\n')
		return len(line), err
	})
}

// run reads data to its end with next on each iteration and fails the
// benchmark on an error or a short read.
func run(b *testing.B, data []byte, next func(*bufio.Reader) (int, error)) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := bufio.NewReader(bytes.NewReader(data))
		n := 0
		for {
			k, err := next(r)
			n += k
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		if n != len(data) {
			b.Fatal("short read")
		}
	}
}
