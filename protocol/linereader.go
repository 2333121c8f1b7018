package protocol

import (
	"bytes"
	"io"
)

// A lineReader reads the lines of a request stream into buffers of their
// own, straight from the reader: a long line is read once, into a buffer
// that doubles as it fills, instead of through a bufio buffer and a slice
// grown by append (which copies a 67 MB line several times over). Each
// line it returns is its own: the values decoded from it may share its
// bytes.
type lineReader struct {
	r    io.Reader
	rest []byte // read past the last line
	err  error  // what ended the reading
	hint int    // a long line's buffer: the longest line so far, an eighth more and two reads
}

// minRead is the least room a read is given.
const minRead = 64 << 10

// next reads one line, newline included; at the end of the input it
// returns what is left with the error (io.EOF at the end). A line longer
// than limit is [errLineTooLong].
func (lr *lineReader) next(limit int) ([]byte, error) {
	line := make([]byte, len(lr.rest), len(lr.rest)+minRead)
	copy(line, lr.rest)
	lr.rest = nil
	scanned := 0
	for {
		if i := bytes.IndexByte(line[scanned:], '\n'); i >= 0 {
			end := scanned + i + 1
			if end > limit {
				return nil, lineTooLong(limit)
			}
			lr.rest = line[end:]
			lr.hint = max(lr.hint, end+end/8+2*minRead)
			return line[:end:end], nil
		}
		scanned = len(line)
		if len(line) > limit {
			return nil, lineTooLong(limit)
		}
		if lr.err != nil {
			return line, lr.err
		}
		if cap(line)-len(line) < minRead {
			// Long lines come again, a little longer (a session
			// grows by a turn a step): the first growth goes straight
			// to the hint, which holds such a line and its last read.
			grown := make([]byte, len(line), max(2*cap(line), lr.hint))
			copy(grown, line)
			line = grown
		}
		n, err := lr.r.Read(line[len(line):cap(line)])
		line = line[:len(line)+n]
		lr.err = err
	}
}
