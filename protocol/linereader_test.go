package protocol

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestLineReader reads lines of every length, a byte at a time and all
// at once: each line whole, newline included, then what is left with
// io.EOF; a line over the limit is refused.
func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 3*minRead+5)
	input := "a\n\n" + long + "\n" + long + long + "\nb\nlast"
	want := []string{"a\n", "\n", long + "\n", long + long + "\n", "b\n", "last"}
	for _, r := range []io.Reader{strings.NewReader(input), iotest.OneByteReader(strings.NewReader(input)), iotest.HalfReader(strings.NewReader(input))} {
		lr := lineReader{r: r}
		for i, w := range want {
			line, err := lr.next(1 << 20)
			if string(line) != w {
				t.Fatalf("line %d: %.20q… (%d bytes), want %.20q… (%d bytes)", i, line, len(line), w, len(w))
			}
			if wantErr := i == len(want)-1; (err != nil) != wantErr || wantErr && !errors.Is(err, io.EOF) {
				t.Fatalf("line %d: error %v", i, err)
			}
		}
		if line, err := lr.next(1 << 20); len(line) != 0 || !errors.Is(err, io.EOF) {
			t.Fatalf("after the end: %q, %v", line, err)
		}
	}
	lr := lineReader{r: strings.NewReader("ok\n" + long + "\n")}
	if _, err := lr.next(len(long)); err != nil {
		t.Fatal(err)
	}
	if _, err := lr.next(len(long)); !errors.Is(err, errLineTooLong) {
		t.Errorf("a line of %d bytes under a limit of %d: %v", len(long)+1, len(long), err)
	}
}
