// Package yamltext checks that a file is text a YAML parser can read before
// it is parsed, because the parser's own complaint about bytes that are not
// text ("control characters are not allowed", "invalid trailing UTF-8
// octet") names no position. [Check] names the line and the byte offset,
// and [Truncated] says when a file that fails to parse was cut short.
package yamltext

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"unicode/utf8"
)

// An Error is a byte that cannot be YAML text, at Line and byte Offset of
// the file Name.
type Error struct {
	Name         string
	Line, Offset int
	// Detail says what the byte is.
	Detail string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d: byte offset %d: %s", e.Name, e.Line, e.Offset, e.Detail)
}

// Check returns an *[Error] naming name, the line and the byte offset of the
// first byte that cannot be YAML text: invalid UTF-8, or a control
// character other than tab, line feed and carriage return. It returns nil
// for text.
func Check(name string, b []byte) error {
	for off := 0; off < len(b); {
		c := b[off]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f {
				return &Error{Name: name, Line: line(b, off), Offset: off, Detail: fmt.Sprintf("control character 0x%02x: not YAML text (binary data goes base64 under !!binary)", c)}
			}
			off++
			continue
		}
		r, size := utf8.DecodeRune(b[off:])
		if r == utf8.RuneError && size == 1 {
			return &Error{Name: name, Line: line(b, off), Offset: off, Detail: "not UTF-8 text (binary data goes base64 under !!binary)"}
		}
		off += size
	}
	return nil
}

// line is the 1-based line of byte offset off.
func line(b []byte, off int) int { return 1 + bytes.Count(b[:off], []byte("\n")) }

// Truncated adds a hint to a parse or validation error of b when the file
// ends mid-line, the usual sign of a cut file (every writer of these
// files ends them with a newline). It returns nil for a nil error.
func Truncated(b []byte, err error) error {
	if err != nil && len(b) > 0 && b[len(b)-1] != '\n' {
		return fmt.Errorf("%w (the file ends mid-line: truncated?)", err)
	}
	return err
}

// parserLine matches the position of a YAML parser error ("yaml: line 23:
// did not find expected ',' or ']'"). The parser, unlike the scanner,
// reports its lines counted from 0: the line where the construct in error
// opened (an unclosed [ or {), or, when that is the first line, the line
// where it gave up.
var parserLine = regexp.MustCompile(`yaml: line (\d+): (did not find expected)`)

// Position corrects the line a YAML syntax error of the document src
// names: the parser's errors count lines from 0, the scanner's from 1. A
// mistake found at the end of the input is on the last line. Other errors
// are returned as they are.
func Position(err error, src []byte) error {
	if err == nil {
		return nil
	}
	m := parserLine.FindStringSubmatchIndex(err.Error())
	if m == nil {
		return err
	}
	msg := err.Error()
	n, _ := strconv.Atoi(msg[m[2]:m[3]])
	last := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		last++
	}
	n = max(1, min(n+1, last))
	return &positioned{msg: msg[:m[2]] + strconv.Itoa(n) + msg[m[3]:], err: err}
}

// positioned is an error whose message names the corrected line.
type positioned struct {
	msg string
	err error
}

func (e *positioned) Error() string { return e.msg }
func (e *positioned) Unwrap() error { return e.err }
