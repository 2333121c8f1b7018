package sse

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// DefaultMaxLine is the longest line, in bytes without its line ending, a
// [Reader] accepts unless [Reader.SetMaxLine] says otherwise.
const DefaultMaxLine = 16 << 20

// bufSize is the initial buffer size; the buffer grows only for lines
// longer than it.
const bufSize = 64 << 10

// Event data is written straight into a shared slab, and each Data string
// is a slice of it: one allocation per slab instead of one per event. A
// slab starts at minSlab bytes and doubles up to maxSlab; an event larger
// than that gets a slab of its own.
const (
	minSlab = 4 << 10
	maxSlab = 256 << 10
)

// maxEmptyReads is how many reads in a row may return no bytes and no
// error before the reader gives up with io.ErrNoProgress.
const maxEmptyReads = 100

// bom is the UTF-8 byte order mark skipped at the start of a stream.
var bom = []byte{0xEF, 0xBB, 0xBF}

// Event is one dispatched Server-Sent Event.
type Event struct {
	// Name is the value of the event's "event" field, or "" when it had
	// none (EventSource would call the event "message").
	Name string
	// Data is the event's data lines joined with "\n".
	Data string
	// ID is the last event ID: the value of the most recent "id" field in
	// the stream so far, in this event or an earlier one, as EventSource
	// defines it.
	ID string
	// Offset is the byte offset in the stream of the first byte of the
	// event's first line (a comment or field line, never a blank line).
	Offset int64
}

// Reader reads events from a stream. It buffers its input; it is not safe
// for concurrent use.
type Reader struct {
	rd      io.Reader
	buf     []byte
	start   int   // first unconsumed byte in buf
	end     int   // end of the bytes read into buf
	base    int64 // stream offset of buf[0]
	rerr    error // error from rd, reported once buf is used up
	err     error // sticky error returned by Next
	maxLine int

	started bool // the byte order mark has been looked for
	skipLF  bool // the last line ended in "\r": drop a "\n" that follows

	// Where the next '\n' and '\r' are: lfAt/crAt is its index in buf if
	// it is >= start; otherwise buf[start:lfTo] (buf[start:crTo]) holds
	// none. Each byte is searched at most once per character.
	lfAt, lfTo int
	crAt, crTo int

	// The event being built: its data is slab.String()[mark:].
	slab       *strings.Builder
	mark       int
	hasData    bool
	name       []byte
	blockStart int64 // offset of the block's first line, -1 before it

	names    []string // event names seen, reused to avoid allocations
	lastID   string
	retry    int
	hasRetry bool
}

// NewReader returns a Reader that reads events from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{
		rd:         r,
		buf:        make([]byte, bufSize),
		slab:       new(strings.Builder),
		maxLine:    DefaultMaxLine,
		lfAt:       -1,
		crAt:       -1,
		blockStart: -1,
	}
}

// SetMaxLine sets the longest line, in bytes without its line ending, that
// later reads accept; n < 1 restores DefaultMaxLine.
func (r *Reader) SetMaxLine(n int) {
	if n < 1 {
		n = DefaultMaxLine
	}
	r.maxLine = n
}

// Retry reports the reconnection time in milliseconds from the most recent
// valid "retry" field (ASCII digits only) read so far, and whether there
// was one.
func (r *Reader) Retry() (int, bool) { return r.retry, r.hasRetry }

// Next returns the next event. At the end of the stream it returns io.EOF;
// after any error it keeps returning that error.
func (r *Reader) Next() (Event, error) {
	if r.err != nil {
		return Event{}, r.err
	}
	if !r.started {
		r.skipBOM()
	}
	for {
		line, off, err := r.readLine()
		if err != nil {
			if err == io.EOF {
				if ev, ok := r.dispatch(); ok {
					return ev, nil
				}
			}
			r.err = err
			return Event{}, err
		}
		if len(line) == 0 {
			if ev, ok := r.dispatch(); ok {
				return ev, nil
			}
			continue
		}
		r.field(line, off)
	}
}

// Events reads every event from r. On an error it returns the events read
// before it together with the error.
func Events(r io.Reader) ([]Event, error) {
	var events []Event
	rd := NewReader(r)
	for {
		ev, err := rd.Next()
		if err == io.EOF {
			return events, nil
		}
		if err != nil {
			return events, err
		}
		events = append(events, ev)
	}
}

// skipBOM drops a UTF-8 byte order mark at the start of the stream.
func (r *Reader) skipBOM() {
	for r.end-r.start < len(bom) && r.rerr == nil {
		r.fill()
	}
	if bytes.HasPrefix(r.buf[r.start:r.end], bom) {
		r.start += len(bom)
	}
	r.started = true
}

// field applies one non-empty line of the current block.
func (r *Reader) field(line []byte, off int64) {
	if r.blockStart < 0 {
		r.blockStart = off
	}
	if line[0] == ':' {
		return // comment
	}
	name, value := line, line[len(line):]
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(name) {
	case "data":
		r.appendData(value)
	case "event":
		r.name = append(r.name[:0], value...)
	case "id":
		if bytes.IndexByte(value, 0) < 0 && string(value) != r.lastID {
			r.lastID = string(value)
		}
	case "retry":
		if ms, ok := parseDigits(value); ok {
			r.retry, r.hasRetry = ms, true
		}
	}
}

// parseDigits parses a non-empty run of ASCII digits that fits in an int32.
func parseDigits(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// dispatch ends the current block and returns its event, if it had data.
func (r *Reader) dispatch() (Event, bool) {
	var ev Event
	ok := r.hasData
	if ok {
		all := r.slab.String()
		ev = Event{Name: r.internName(), Data: all[r.mark:], ID: r.lastID, Offset: r.blockStart}
		r.mark = len(all)
	}
	r.hasData, r.name, r.blockStart = false, r.name[:0], -1
	return ev, ok
}

// maxNames bounds the event names remembered by internName; streams use a
// handful.
const maxNames = 32

// internName returns the current event name as a string, allocating only
// the first time a name is seen.
func (r *Reader) internName() string {
	if len(r.name) == 0 {
		return ""
	}
	for _, n := range r.names {
		if n == string(r.name) {
			return n
		}
	}
	n := string(r.name)
	if len(r.names) < maxNames {
		r.names = append(r.names, n)
	}
	return n
}

// appendData adds one data line to the current event, after a "\n" if it
// is not the first. Strings already handed out stay valid: a
// strings.Builder never changes bytes it has written, and a full slab is
// replaced, not grown, with the pending event's data carried over.
func (r *Reader) appendData(value []byte) {
	need := len(value)
	if r.hasData {
		need++
	}
	if r.slab.Cap()-r.slab.Len() < need {
		pending := r.slab.String()[r.mark:]
		next := new(strings.Builder)
		next.Grow(max(len(pending)+need, min(2*r.slab.Cap(), maxSlab), minSlab))
		next.WriteString(pending)
		r.slab, r.mark = next, 0
	}
	if r.hasData {
		r.slab.WriteByte('\n')
	}
	r.slab.Write(value)
	r.hasData = true
}

// readLine returns the next line without its ending, and its offset. The
// line aliases the buffer and is valid until the next call. At the end of
// the stream it returns io.EOF.
func (r *Reader) readLine() ([]byte, int64, error) {
	for {
		if r.skipLF {
			if r.start == r.end && r.rerr == nil {
				r.fill()
				continue
			}
			if r.start < r.end && r.buf[r.start] == '\n' {
				r.start++
			}
			r.skipLF = false
		}
		term := r.find('\n', &r.lfAt, &r.lfTo)
		if cr := r.find('\r', &r.crAt, &r.crTo); cr >= 0 && (term < 0 || cr < term) {
			term = cr
		}
		if term >= 0 {
			off := r.base + int64(r.start)
			if term-r.start > r.maxLine {
				return nil, 0, r.tooLong(off)
			}
			line := r.buf[r.start:term]
			r.start = term + 1
			if r.buf[term] == '\r' {
				// A "\n" right after completes a "\r\n"; if it is not in
				// the buffer yet, drop it when it arrives.
				if r.start < r.end {
					if r.buf[r.start] == '\n' {
						r.start++
					}
				} else {
					r.skipLF = true
				}
			}
			return line, off, nil
		}
		if r.end-r.start > r.maxLine {
			return nil, 0, r.tooLong(r.base + int64(r.start))
		}
		if r.rerr != nil {
			if r.start < r.end {
				// The last line has no ending.
				off := r.base + int64(r.start)
				line := r.buf[r.start:r.end]
				r.start = r.end
				return line, off, nil
			}
			return nil, 0, r.rerr
		}
		r.fill()
	}
}

func (r *Reader) tooLong(off int64) error {
	return fmt.Errorf("sse: line at offset %d exceeds %d bytes", off, r.maxLine)
}

// find returns the index in buf of the next c at or after start, or -1 if
// buf[start:end] has none; *at and *to cache the search (see Reader).
func (r *Reader) find(c byte, at, to *int) int {
	if *at >= r.start {
		return *at
	}
	from := max(*to, r.start)
	if i := bytes.IndexByte(r.buf[from:r.end], c); i >= 0 {
		*at, *to = from+i, from+i+1
		return *at
	}
	*at, *to = -1, r.end
	return -1
}

// fill reads more input into buf, first moving unconsumed bytes to the
// front and growing buf if a line fills it. It records a read error or EOF
// in rerr.
func (r *Reader) fill() {
	if r.start > 0 {
		n := r.start
		copy(r.buf, r.buf[n:r.end])
		r.end -= n
		r.start = 0
		r.base += int64(n)
		r.lfTo = max(r.lfTo-n, 0)
		r.crTo = max(r.crTo-n, 0)
		if r.lfAt >= 0 {
			r.lfAt -= n // stays >= 0: it was >= start or is now stale anyway
		}
		if r.crAt >= 0 {
			r.crAt -= n
		}
	}
	if r.end == len(r.buf) {
		// One line fills the buffer: grow it, but never beyond what is
		// needed to see that a line is too long.
		size := min(2*len(r.buf), r.maxLine+2)
		if size <= len(r.buf) {
			size = len(r.buf) + 1
		}
		nb := make([]byte, size)
		copy(nb, r.buf[:r.end])
		r.buf = nb
	}
	for range maxEmptyReads {
		n, err := r.rd.Read(r.buf[r.end:])
		if n < 0 || n > len(r.buf)-r.end {
			r.rerr = fmt.Errorf("sse: read at offset %d: reader returned an invalid count %d", r.base+int64(r.end), n)
			return
		}
		r.end += n
		if err == io.EOF {
			r.rerr = io.EOF
			return
		}
		if err != nil {
			r.rerr = fmt.Errorf("sse: read at offset %d: %w", r.base+int64(r.end), err)
			return
		}
		if n > 0 {
			return
		}
	}
	r.rerr = fmt.Errorf("sse: read at offset %d: %w", r.base+int64(r.end), io.ErrNoProgress)
}
