package sse

import (
	"bytes"
	"io"
)

// DefaultMaxLine is the longest line, in bytes without its line ending, a
// [Reader] accepts unless [Reader.SetMaxLine] says otherwise.
const DefaultMaxLine = 16 << 20

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
	lines
	data

	err     error // sticky error returned by Next
	started bool  // the byte order mark has been looked for

	// The block being read; the event name is name[:nameLen].
	name       []byte
	nameLen    int
	blockStart int64 // offset of the block's first line, -1 before it

	names    []string // event names seen, reused to avoid allocations
	lastID   string
	retry    int
	hasRetry bool
}

// NewReader returns a Reader that reads events from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{lines: newLines(r), blockStart: -1}
}

// SetMaxLine sets the longest line, in bytes without its line ending, that
// later reads accept; n < 1 restores DefaultMaxLine.
func (r *Reader) SetMaxLine(n int) {
	if n < 1 {
		n = DefaultMaxLine
	}
	r.maxLine = n
}

// Offset returns the number of bytes read from the stream so far; after
// io.EOF, the stream's length.
func (r *Reader) Offset() int64 { return r.base + int64(r.end) }

// Retry reports the reconnection time in milliseconds from the most recent
// valid "retry" field (ASCII digits only) read so far, and whether there
// was one.
func (r *Reader) Retry() (int, bool) { return r.retry, r.hasRetry }

// Next returns the next event. At the end of the stream it returns io.EOF;
// after any error it keeps returning that error.
func (r *Reader) Next() (Event, error) {
	if err := r.advance(false); err != nil {
		return Event{}, err
	}
	name, data, off := r.internName(), r.takeData(), r.blockStart
	r.reset()
	return Event{Name: name, Data: data, ID: r.lastID, Offset: off}, nil
}

// A RawEvent is an event whose data is only valid until the next call to
// the Reader.
type RawEvent struct {
	// Name, ID and Offset are as in [Event].
	Name   string
	ID     string
	Offset int64
	// Data is the event's data lines joined with "\n", in a buffer the
	// Reader reuses.
	Data []byte
}

// NextRaw is Next for a caller that copies what it keeps of each event:
// the data is held in one buffer the Reader reuses, valid only until the
// next call to Next or NextRaw, so a long stream is read without an
// allocation per event.
func (r *Reader) NextRaw() (RawEvent, error) {
	if err := r.advance(true); err != nil {
		return RawEvent{}, err
	}
	name, data, off := r.internName(), r.takeBytes(), r.blockStart
	r.reset()
	return RawEvent{Name: name, Data: data, ID: r.lastID, Offset: off}, nil
}

// advance reads lines until a block with data is complete, the data going
// to the reused buffer if transient is set.
func (r *Reader) advance(transient bool) error {
	if r.err != nil {
		return r.err
	}
	if !r.started {
		r.skipBOM()
		r.started = true
	}
	r.transient = transient
	for {
		line, off, err := r.readLine()
		if err != nil {
			if err == io.EOF && r.hasData {
				return nil
			}
			r.err = err
			return err
		}
		if len(line) > 0 {
			r.field(line, off)
			continue
		}
		if r.hasData {
			return nil
		}
		r.reset()
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

// field applies one non-empty line of the current block.
func (r *Reader) field(line []byte, off int64) {
	if r.blockStart < 0 {
		r.blockStart = off
	}
	// Most lines are data lines: take them before the general case.
	if len(line) >= 5 && string(line[:5]) == "data:" {
		value := line[5:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		r.addData(value)
		return
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
		r.addData(value)
	case "event":
		r.name = append(r.name[:0], value...)
		r.nameLen = len(value)
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

// reset starts a new block. The last event ID is not part of a block.
func (r *Reader) reset() {
	r.nameLen, r.blockStart = 0, -1
	r.dropData()
}

// maxNames bounds the event names remembered by internName; streams use a
// handful.
const maxNames = 32

// internName returns the current event name as a string, allocating only
// the first time a name is seen.
func (r *Reader) internName() string {
	name := r.name[:r.nameLen]
	if len(name) == 0 {
		return ""
	}
	for _, n := range r.names {
		if n == string(name) {
			return n
		}
	}
	n := string(name)
	if len(r.names) < maxNames {
		r.names = append(r.names, n)
	}
	return n
}
