// Package layout recognises the events of a stream that repeat an earlier
// event byte for byte except for one JSON string value.
//
// The deltas of one stream share their framing (id, model, indexes, the
// nesting around the text) and differ in the piece of text they carry and,
// sometimes, in trailing members the capture ignores (usage counts,
// padding). A dialect parses an event in full once, finds that all it adds
// is one piece of text, and hands it to [Cache.Learn]. A later event that
// has the same bytes before and after a valid JSON string in the value's
// place, followed by a valid end of the object whose keys the dialect does
// not read, is then known to parse as the first one did with another
// piece: [Cache.Match] returns the piece without parsing the event, and
// anything else is left to the dialect's general path.
package layout

import (
	"io"
	"strings"

	"github.com/replaycheck/replaycheck/engine/internal/jsonscan"
	"github.com/tidwall/gjson"
)

// slots is how many layouts a Cache keeps: a stream alternates between a
// few (reasoning, then the answer).
const slots = 4

// A layout is an event's bytes around its one text value.
type layout[T any] struct {
	tag    T
	before string // through the value's opening quote
	after  string // from the value's closing quote to the end of the top-level member holding it
	end    rest   // the varying end last validated
}

// A Cache keeps the layouts of recent events of one stream. The zero
// Cache is not usable; make one with [NewCache].
type Cache[T any] struct {
	recent [slots]layout[T]
	used   int
	next   int
	reads  []string
}

// NewCache returns an empty Cache for a dialect whose general path reads
// the top-level keys reads; an event whose varying end holds one of them
// is never matched.
func NewCache[T any](reads ...string) *Cache[T] {
	return &Cache[T]{reads: reads}
}

// Learn remembers the layout of data, an event the general path has parsed
// and validated, and whose only effect is the string value (a result of
// parsing data, so its Index is its offset) read as tag. memberEnd is the
// offset just after the top-level member holding the value; the bytes from
// there on may vary between events of the layout.
func (c *Cache[T]) Learn(data string, value gjson.Result, memberEnd int, tag T) {
	start, end := value.Index, value.Index+len(value.Raw)
	if value.Type != gjson.String || start <= 0 || end > memberEnd || memberEnd > len(data) || data[start:end] != value.Raw {
		return
	}
	l := &c.recent[c.next]
	l.tag, l.before, l.after = tag, strings.Clone(data[:start+1]), strings.Clone(data[end-1:memberEnd])
	l.end.set(nil)
	if jsonscan.ObjectRest(data[memberEnd:], c.reads) {
		l.end.set([]byte(data[memberEnd:]))
	}
	c.next = (c.next + 1) % slots
	c.used = min(c.used+1, slots)
}

// Match returns the tag and the value of data if it has the layout of a
// learnt event. The piece refers to data.
func (c *Cache[T]) Match(data []byte) (tag T, piece Piece, ok bool) {
	for i := range c.used {
		l := &c.recent[i]
		if len(data) < len(l.before) || string(data[:len(l.before)]) != l.before {
			continue
		}
		body := data[len(l.before):]
		n, escaped := jsonscan.StringEnd(body)
		if n < 0 || len(body)-n < len(l.after) || string(body[n:n+len(l.after)]) != l.after {
			continue
		}
		if end := body[n+len(l.after):]; !l.end.sameButValues(end) {
			if !jsonscan.ObjectRest(end, c.reads) {
				continue
			}
			l.end.set(end)
		}
		return l.tag, NewPiece(data[len(l.before)-1:len(l.before)+n+1], escaped), true
	}
	return tag, Piece{}, false
}

// A Piece is a matched JSON string value, still encoded; it refers to the
// event it was matched in.
type Piece struct {
	quoted  []byte // the value with its quotes
	escaped bool
}

// NewPiece returns the piece of a valid JSON string, quotes included, that
// has escapes or not (as jsonscan.StringEnd reports).
func NewPiece(quoted []byte, escaped bool) Piece { return Piece{quoted, escaped} }

// A Sink receives decoded text: a *strings.Builder, or a *textbuf.Buffer
// for texts that grow long.
type Sink interface {
	io.Writer
	io.StringWriter
}

// WriteTo appends the decoded value to b.
func (p Piece) WriteTo(b Sink) {
	if !p.escaped {
		b.Write(p.body())
		return
	}
	b.WriteString(p.String())
}

// String returns the decoded value. An escaped value is decoded as the
// general paths decode it (gjson), invalid UTF-8 included.
func (p Piece) String() string {
	if !p.escaped {
		return string(p.body())
	}
	return gjson.Parse(string(p.quoted)).Str
}

// Empty reports whether the value is "".
func (p Piece) Empty() bool { return len(p.quoted) <= 2 }

func (p Piece) body() []byte {
	if len(p.quoted) < 2 {
		return nil
	}
	return p.quoted[1 : len(p.quoted)-1]
}
