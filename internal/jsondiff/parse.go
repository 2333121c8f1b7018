package jsondiff

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"unicode/utf8"
)

// maxDepth bounds nesting so that a hostile body cannot exhaust the stack:
// parsing, encoding and diffing all recurse once per level. encoding/json
// uses the same limit.
const maxDepth = 10000

// kind is the JSON type of a node.
type kind uint8

const (
	kindNull kind = iota
	kindFalse
	kindTrue
	kindNumber
	kindString
	kindArray
	kindObject
)

// node flags.
const (
	flagEscaped  uint8 = 1 << iota // a string value contains backslash escapes
	flagKeyArena                   // the member key is decoded into doc.keys
)

// node is one JSON value. Offsets are int32 to keep the tree small; parse
// rejects inputs that do not fit.
type node struct {
	start, end int32 // value span in src; strings include their quotes
	key0, key1 int32 // member key, decoded: in src (without quotes) or in doc.keys
	keyPos     int32 // offset of the member key's opening quote in src
	kid0, nkid int32 // children of a container: doc.kids[kid0 : kid0+nkid]
	kind       kind
	flags      uint8
}

// doc is a parsed JSON document: a flat tree of nodes over the source bytes.
// Object members are sorted by decoded key once, at parse time.
type doc struct {
	src   []byte
	nodes []node
	kids  []int32
	keys  []byte  // decoded keys that contained escapes
	stack []int32 // children of the containers being parsed
	label string  // "want" or "got" in errors from Diff and Distance
}

// SyntaxError reports input that is not a single valid JSON value.
type SyntaxError struct {
	// Doc names the document in play ("want" or "got") when more than one
	// is; it is empty for Canonical.
	Doc string
	// Offset is the byte offset in the input where the problem was found.
	Offset int64
	// Msg describes the problem.
	Msg string
}

// Error returns the message, for example
// "jsondiff: invalid JSON at offset 17: unexpected end of input".
func (e *SyntaxError) Error() string {
	if e.Doc != "" {
		return fmt.Sprintf("jsondiff: %s: invalid JSON at offset %d: %s", e.Doc, e.Offset, e.Msg)
	}
	return fmt.Sprintf("jsondiff: invalid JSON at offset %d: %s", e.Offset, e.Msg)
}

// parse reads src as exactly one JSON value surrounded by optional
// whitespace. label names the document in errors.
func parse(src []byte, label string) (*doc, error) {
	if len(src) > math.MaxInt32 {
		return nil, &SyntaxError{Doc: label, Offset: math.MaxInt32, Msg: fmt.Sprintf("input of %d bytes is larger than 2 GiB", len(src))}
	}
	d := &doc{src: src, label: label}
	// A rough guess that avoids most regrowth for typical request bodies.
	d.nodes = make([]node, 0, 16+len(src)/64)
	i := skipSpace(src, 0)
	_, i, err := d.value(i, 0)
	if err != nil {
		return nil, err
	}
	i = skipSpace(src, i)
	if i < len(src) {
		return nil, d.errorf(i, "unexpected %s after the top-level value", describe(src[i]))
	}
	return d, nil
}

func (d *doc) errorf(off int, format string, args ...any) error {
	return &SyntaxError{Doc: d.label, Offset: int64(off), Msg: fmt.Sprintf(format, args...)}
}

// describe names a byte for an error message.
func describe(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("character %q", c)
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func skipSpace(src []byte, i int) int {
	for i < len(src) {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value parses the value starting at src[i] and returns its node index and
// the offset just after it.
func (d *doc) value(i, depth int) (int32, int, error) {
	src := d.src
	if i >= len(src) {
		return 0, i, d.errorf(i, "unexpected end of input")
	}
	idx := int32(len(d.nodes))
	d.nodes = append(d.nodes, node{start: int32(i)})
	switch c := src[i]; {
	case c == '"':
		end, esc, err := d.scanString(i + 1)
		if err != nil {
			return 0, 0, err
		}
		n := &d.nodes[idx]
		n.kind, n.end = kindString, int32(end)
		if esc {
			n.flags |= flagEscaped
		}
		return idx, end, nil
	case c == '{' || c == '[':
		if depth >= maxDepth {
			return 0, 0, d.errorf(i, "nesting deeper than %d levels", maxDepth)
		}
		var end int
		var err error
		if c == '{' {
			end, err = d.object(idx, i+1, depth+1)
		} else {
			end, err = d.array(idx, i+1, depth+1)
		}
		if err != nil {
			return 0, 0, err
		}
		d.nodes[idx].end = int32(end)
		return idx, end, nil
	case c == '-' || (c >= '0' && c <= '9'):
		end, err := d.scanNumber(i)
		if err != nil {
			return 0, 0, err
		}
		d.nodes[idx].kind, d.nodes[idx].end = kindNumber, int32(end)
		return idx, end, nil
	default:
		for _, lit := range [...]struct {
			text string
			kind kind
		}{{"true", kindTrue}, {"false", kindFalse}, {"null", kindNull}} {
			if c != lit.text[0] {
				continue
			}
			if !bytes.HasPrefix(src[i:], []byte(lit.text)) {
				// Point at the first byte that breaks the literal.
				j := i
				for j < len(src) && j-i < len(lit.text) && src[j] == lit.text[j-i] {
					j++
				}
				if j == len(src) {
					return 0, 0, d.errorf(j, "unexpected end of input in literal %s", lit.text)
				}
				return 0, 0, d.errorf(j, "unexpected %s in literal %s", describe(src[j]), lit.text)
			}
			end := i + len(lit.text)
			d.nodes[idx].kind, d.nodes[idx].end = lit.kind, int32(end)
			return idx, end, nil
		}
		return 0, 0, d.errorf(i, "unexpected %s looking for a value", describe(c))
	}
}

// array parses the elements after '[' at src[i-1].
func (d *doc) array(idx int32, i, depth int) (int, error) {
	src := d.src
	base := len(d.stack)
	i = skipSpace(src, i)
	if i < len(src) && src[i] == ']' {
		d.finish(idx, kindArray, base)
		return i + 1, nil
	}
	for {
		kid, j, err := d.value(i, depth)
		if err != nil {
			return 0, err
		}
		d.stack = append(d.stack, kid)
		i = skipSpace(src, j)
		if i >= len(src) {
			return 0, d.errorf(i, "unexpected end of input in array")
		}
		switch src[i] {
		case ',':
			i = skipSpace(src, i+1)
		case ']':
			d.finish(idx, kindArray, base)
			return i + 1, nil
		default:
			return 0, d.errorf(i, "unexpected %s after array element", describe(src[i]))
		}
	}
}

// object parses the members after '{' at src[i-1].
func (d *doc) object(idx int32, i, depth int) (int, error) {
	src := d.src
	base := len(d.stack)
	i = skipSpace(src, i)
	if i < len(src) && src[i] == '}' {
		d.finish(idx, kindObject, base)
		return i + 1, nil
	}
	for {
		if i >= len(src) {
			return 0, d.errorf(i, "unexpected end of input in object")
		}
		if src[i] != '"' {
			return 0, d.errorf(i, "unexpected %s looking for an object key", describe(src[i]))
		}
		keyPos := i
		keyEnd, esc, err := d.scanString(i + 1)
		if err != nil {
			return 0, err
		}
		k0, k1, arena := int32(i+1), int32(keyEnd-1), false
		if esc {
			k0 = int32(len(d.keys))
			d.keys = appendUnquoted(d.keys, src[i+1:keyEnd-1])
			k1, arena = int32(len(d.keys)), true
		}
		i = skipSpace(src, keyEnd)
		if i >= len(src) {
			return 0, d.errorf(i, "unexpected end of input after object key")
		}
		if src[i] != ':' {
			return 0, d.errorf(i, "unexpected %s after object key", describe(src[i]))
		}
		i = skipSpace(src, i+1)
		kid, j, err := d.value(i, depth)
		if err != nil {
			return 0, err
		}
		n := &d.nodes[kid]
		n.key0, n.key1, n.keyPos = k0, k1, int32(keyPos)
		if arena {
			n.flags |= flagKeyArena
		}
		d.stack = append(d.stack, kid)
		i = skipSpace(src, j)
		if i >= len(src) {
			return 0, d.errorf(i, "unexpected end of input in object")
		}
		switch src[i] {
		case ',':
			i = skipSpace(src, i+1)
		case '}':
			d.finish(idx, kindObject, base)
			return i + 1, d.sortMembers(idx)
		default:
			return 0, d.errorf(i, "unexpected %s after object member", describe(src[i]))
		}
	}
}

// finish moves the children collected since stack[base] into kids.
func (d *doc) finish(idx int32, k kind, base int) {
	n := &d.nodes[idx]
	n.kind = k
	n.kid0 = int32(len(d.kids))
	n.nkid = int32(len(d.stack) - base)
	d.kids = append(d.kids, d.stack[base:]...)
	d.stack = d.stack[:base]
}

// key returns the decoded key of member node i.
func (d *doc) key(i int32) []byte {
	n := &d.nodes[i]
	if n.flags&flagKeyArena != 0 {
		return d.keys[n.key0:n.key1]
	}
	return d.src[n.key0:n.key1]
}

// children returns the children of container node i.
func (d *doc) children(i int32) []int32 {
	n := &d.nodes[i]
	return d.kids[n.kid0 : n.kid0+n.nkid]
}

// sortMembers orders the members of object idx by decoded key and rejects
// duplicate keys.
func (d *doc) sortMembers(idx int32) error {
	kids := d.children(idx)
	cmp := func(a, b int32) int { return bytes.Compare(d.key(a), d.key(b)) }
	if !slices.IsSortedFunc(kids, cmp) {
		// Stable, so that of two equal keys the later one comes second.
		slices.SortStableFunc(kids, cmp)
	}
	for j := 1; j < len(kids); j++ {
		if bytes.Equal(d.key(kids[j-1]), d.key(kids[j])) {
			return d.errorf(int(d.nodes[kids[j]].keyPos), "duplicate object key %q", d.key(kids[j]))
		}
	}
	return nil
}

// scanNumber validates the RFC 8259 number at src[i] and returns its end.
func (d *doc) scanNumber(i int) (int, error) {
	src := d.src
	if src[i] == '-' {
		i++
	}
	digits := func(what string) error {
		if i >= len(src) {
			return d.errorf(i, "unexpected end of input in number, want a digit in the %s", what)
		}
		if src[i] < '0' || src[i] > '9' {
			return d.errorf(i, "unexpected %s in number, want a digit in the %s", describe(src[i]), what)
		}
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
		return nil
	}
	if i < len(src) && src[i] == '0' {
		i++
	} else if err := digits("integer part"); err != nil {
		return 0, err
	}
	if i < len(src) && src[i] == '.' {
		i++
		if err := digits("fraction"); err != nil {
			return 0, err
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if err := digits("exponent"); err != nil {
			return 0, err
		}
	}
	return i, nil
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// plain reports whether none of the 8 bytes in x needs a closer look in a
// string: no control character, quote, backslash or non-ASCII byte.
func plain(x uint64) bool {
	hasLess := (x - 0x20*lsb) & ^x & msb               // a byte < 0x20
	hasQuote := ((x ^ '"'*lsb) - lsb) & ^(x ^ '"'*lsb) // a byte == '"'
	hasBack := ((x ^ '\\'*lsb) - lsb) & ^(x ^ '\\'*lsb)
	return (hasLess|hasQuote|hasBack|x)&msb == 0
}

// scanString validates the string whose body starts at src[i] (just after
// the opening quote). It returns the offset just past the closing quote and
// whether the string contains escapes.
func (d *doc) scanString(i int) (int, bool, error) {
	src := d.src
	esc := false
	for {
		for i+8 <= len(src) && plain(binary.LittleEndian.Uint64(src[i:])) {
			i += 8
		}
		if i >= len(src) {
			return 0, false, d.errorf(i, "unexpected end of input in string")
		}
		c := src[i]
		switch {
		case c == '"':
			return i + 1, esc, nil
		case c == '\\':
			esc = true
			n, err := d.scanEscape(i)
			if err != nil {
				return 0, false, err
			}
			i += n
		case c < 0x20:
			return 0, false, d.errorf(i, "control character 0x%02x in string (escape it)", c)
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && size <= 1 {
				return 0, false, d.errorf(i, "invalid UTF-8 byte 0x%02x in string", c)
			}
			i += size
		}
	}
}

// scanEscape validates the escape sequence at src[i] == '\\' and returns its
// length.
func (d *doc) scanEscape(i int) (int, error) {
	src := d.src
	if i+1 >= len(src) {
		return 0, d.errorf(i+1, "unexpected end of input in string escape")
	}
	switch src[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, nil
	case 'u':
		for j := i + 2; j < i+6; j++ {
			if j >= len(src) {
				return 0, d.errorf(j, "unexpected end of input in \\u escape")
			}
			if unhex(src[j]) < 0 {
				return 0, d.errorf(j, "unexpected %s in \\u escape, want a hex digit", describe(src[j]))
			}
		}
		return 6, nil
	default:
		return 0, d.errorf(i+1, "invalid escape \\%c", src[i+1])
	}
}

func unhex(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c - 'a' + 10)
	case c >= 'A' && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return -1
}
