package sse

import (
	"bytes"
	"fmt"
	"io"
)

// bufSize is the initial size of the read buffer; it grows only for a line
// longer than that.
const bufSize = 64 << 10

// maxEmptyReads is how many reads in a row may return no bytes and no
// error before the reader gives up with io.ErrNoProgress.
const maxEmptyReads = 100

// bom is the UTF-8 byte order mark skipped at the start of a stream.
var bom = []byte{0xEF, 0xBB, 0xBF}

// lines splits a stream into lines ending in "\n", "\r\n" or "\r".
type lines struct {
	rd      io.Reader
	buf     []byte
	start   int   // first unconsumed byte in buf
	end     int   // end of the bytes read into buf
	base    int64 // stream offset of buf[0]
	rerr    error // error from rd, reported once buf is used up
	maxLine int
	skipLF  bool // the last line ended in "\r": drop a "\n" that follows

	// Where the next '\n' and '\r' are: lfAt (crAt) is its index in buf if
	// it is >= start; otherwise buf[start:lfTo] (buf[start:crTo]) holds
	// none. Each byte is searched at most once per character.
	lfAt, lfTo int
	crAt, crTo int
}

func newLines(r io.Reader) lines {
	return lines{rd: r, buf: make([]byte, bufSize), maxLine: DefaultMaxLine, lfAt: -1, crAt: -1}
}

// skipBOM drops a UTF-8 byte order mark at the start of the stream.
func (l *lines) skipBOM() {
	for l.end-l.start < len(bom) && l.rerr == nil {
		l.fill()
	}
	if bytes.HasPrefix(l.buf[l.start:l.end], bom) {
		l.start += len(bom)
	}
}

// readLine returns the next line without its ending, and its offset. The
// line is a slice of the buffer, valid until the next call. At the end of
// the stream it returns io.EOF.
func (l *lines) readLine() ([]byte, int64, error) {
	for {
		if l.skipLF {
			if l.start == l.end && l.rerr == nil {
				l.fill()
				continue
			}
			if l.start < l.end && l.buf[l.start] == '\n' {
				l.start++
			}
			l.skipLF = false
		}
		if !l.skipLF && l.lfTo <= l.start {
			if line, off, ok := l.quickLine(); ok {
				return line, off, nil
			}
		}
		term := l.find('\n', &l.lfAt, &l.lfTo)
		if cr := l.find('\r', &l.crAt, &l.crTo); cr >= 0 && (term < 0 || cr < term) {
			term = cr
		}
		if term >= 0 {
			off := l.base + int64(l.start)
			if term-l.start > l.maxLine {
				return nil, 0, l.tooLong(off)
			}
			line := l.buf[l.start:term]
			l.start = term + 1
			if l.buf[term] == '\r' {
				// A "\n" right after completes a "\r\n"; if it is not in
				// the buffer yet, drop it when it arrives.
				if l.start < l.end {
					if l.buf[l.start] == '\n' {
						l.start++
					}
				} else {
					l.skipLF = true
				}
			}
			return line, off, nil
		}
		if l.end-l.start > l.maxLine {
			return nil, 0, l.tooLong(l.base + int64(l.start))
		}
		if l.rerr != nil {
			if l.start < l.end {
				// The last line has no ending.
				off := l.base + int64(l.start)
				line := l.buf[l.start:l.end]
				l.start = l.end
				return line, off, nil
			}
			return nil, 0, l.rerr
		}
		l.fill()
	}
}

// quickLine is the common case of readLine: a buffered line of allowed
// length ending in "\n" or "\r\n". It is only called when the '\n' cache
// knows nothing; whatever it learns goes into the caches, so no byte is
// searched twice.
func (l *lines) quickLine() ([]byte, int64, bool) {
	i := bytes.IndexByte(l.buf[l.start:l.end], '\n')
	if i < 0 {
		l.lfAt, l.lfTo = -1, l.end
		return nil, 0, false
	}
	lf := l.start + i
	cr := l.crAt
	if cr < l.start {
		if l.crTo > lf {
			cr = -1 // known: no '\r' up to the '\n'
		} else {
			cr = l.find('\r', &l.crAt, &l.crTo)
		}
	}
	end := lf
	switch {
	case cr < 0 || cr > lf:
	case cr == lf-1:
		end = cr // "\r\n"
	default:
		// A line ending in a lone '\r' comes first.
		l.lfAt, l.lfTo = lf, lf+1
		return nil, 0, false
	}
	if end-l.start > l.maxLine {
		l.lfAt, l.lfTo = lf, lf+1
		return nil, 0, false
	}
	line, off := l.buf[l.start:end], l.base+int64(l.start)
	l.start = lf + 1
	return line, off, true
}

func (l *lines) tooLong(off int64) error {
	return fmt.Errorf("sse: line at offset %d exceeds %d bytes", off, l.maxLine)
}

// find returns the index in buf of the next c at or after start, or -1 if
// buf[start:end] has none; *at and *to cache the search (see lines).
func (l *lines) find(c byte, at, to *int) int {
	if *at >= l.start {
		return *at
	}
	from := max(*to, l.start)
	if i := bytes.IndexByte(l.buf[from:l.end], c); i >= 0 {
		*at, *to = from+i, from+i+1
		return *at
	}
	*at, *to = -1, l.end
	return -1
}

// fill reads more input, first moving the unconsumed bytes to the front of
// the buffer and growing it if one line fills it. It records a read error
// or EOF in rerr.
func (l *lines) fill() {
	if n := l.start; n > 0 {
		copy(l.buf, l.buf[n:l.end])
		l.start, l.end, l.base = 0, l.end-n, l.base+int64(n)
		// Stale cache entries stay stale (below start) after the shift.
		l.lfAt, l.lfTo = l.lfAt-n, max(l.lfTo-n, 0)
		l.crAt, l.crTo = l.crAt-n, max(l.crTo-n, 0)
	}
	if l.end == len(l.buf) {
		// One line fills the buffer: grow it, but never beyond what is
		// needed to see that the line is too long.
		nb := make([]byte, max(min(2*len(l.buf), l.maxLine+2), len(l.buf)+1))
		copy(nb, l.buf[:l.end])
		l.buf = nb
	}
	for range maxEmptyReads {
		n, err := l.rd.Read(l.buf[l.end:])
		if n < 0 || n > len(l.buf)-l.end {
			l.rerr = fmt.Errorf("sse: read at offset %d: reader returned an invalid count %d", l.base+int64(l.end), n)
			return
		}
		l.end += n
		if err == io.EOF {
			l.rerr = io.EOF
			return
		}
		if err != nil {
			l.rerr = fmt.Errorf("sse: read at offset %d: %w", l.base+int64(l.end), err)
			return
		}
		if n > 0 {
			return
		}
	}
	l.rerr = fmt.Errorf("sse: read at offset %d: %w", l.base+int64(l.end), io.ErrNoProgress)
}
