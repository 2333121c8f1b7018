package engine

import (
	"bytes"
	"errors"
	"strings"

	"github.com/replaycheck/replaycheck/engine/internal/jsonscan"
)

// The session parser below reads a session document in one pass: it
// validates the JSON as it walks it, decodes the strings a message keeps,
// and keeps every raw value's bytes as they are. It takes only the input
// whose meaning is plain — anything encoding/json would read with a twist
// (a key matched by case folding, a key given twice, a \u escape, invalid
// UTF-8, a wrong type, a syntax error) makes it give up with errSlow, and
// the caller reads the document with encoding/json instead, which decides
// and words every error exactly as before.

// errSlow says the fast parser gave up: the input needs encoding/json.
var errSlow = errors.New("engine: not for the fast parser")

// scanner is a position in a JSON document.
type scanner struct {
	b []byte
	i int
	// quoted, when not nil, keeps the JSON forms of long reasoning
	// strings (see optStr).
	quoted *QuotedStrings
	// laters are the very long reasoning strings put off, laterBytes
	// their length (see decodeLater).
	laters     []laterStr
	laterBytes int
}

// space skips whitespace.
func (s *scanner) space() { s.i = jsonscan.SkipSpace(s.b, s.i) }

// byte consumes c after whitespace.
func (s *scanner) byte(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// raw consumes one value after whitespace and returns its bytes.
func (s *scanner) raw() ([]byte, error) {
	s.space()
	end := jsonscan.Value(s.b, s.i)
	if end < 0 {
		return nil, errSlow
	}
	v := s.b[s.i:end:end]
	s.i = end
	return v, nil
}

// null consumes a null literal if one comes next.
func (s *scanner) null() bool {
	s.space()
	if strings.HasPrefix(string(s.b[s.i:min(s.i+4, len(s.b))]), "null") {
		s.i += 4
		return true
	}
	return false
}

// str consumes a string and returns it decoded. It gives up on a \u
// escape or invalid UTF-8, which encoding/json decodes with replacements.
func (s *scanner) str() (string, error) {
	start, escaped, err := s.strBody()
	if err != nil {
		return "", err
	}
	v, _, err := decodeStr(s.b[start+1:s.i-1], escaped)
	return v, err
}

// strBody consumes a string and returns where it starts (its opening
// quote) and whether it has escapes; it ends at s.i.
func (s *scanner) strBody() (start int, escaped bool, err error) {
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return 0, false, errSlow
	}
	start = s.i
	n, escaped := jsonscan.StringEnd(s.b[s.i+1:])
	if n < 0 {
		return 0, false, errSlow
	}
	s.i += n + 2
	return start, escaped, nil
}

// decodeStr decodes a string body; canonical reports whether the body is
// what AppendQuoted writes for the string, quotes aside. It gives up on a
// \u escape or invalid UTF-8.
func decodeStr(body []byte, escaped bool) (v string, canonical bool, err error) {
	if !jsonscan.ValidUTF8(body) {
		return "", false, errSlow
	}
	if !escaped {
		v = string(body)
		return v, !hasLineSeparator(v), nil
	}
	if v, canonical, err = unescape(body); err != nil {
		return "", false, err
	}
	return v, canonical && !hasLineSeparator(v), nil
}

// optStr consumes a string or null (nil). It is how a message's reasoning
// strings are read: when the scanner keeps quoted forms, a long one's
// form is kept, and a very long one is decoded after the document is
// read (see decodeLater).
func (s *scanner) optStr() (*string, error) {
	if s.null() {
		return nil, nil
	}
	if s.quoted == nil {
		v, err := s.str()
		return &v, err
	}
	if p, ok := s.later(); ok {
		return p, nil
	}
	start, escaped, err := s.strBody()
	if err != nil {
		return nil, err
	}
	form := s.b[start:s.i:s.i]
	v, canonical, err := decodeStr(form[1:len(form)-1], escaped)
	if err == nil && canonical && len(v) >= minQuoted {
		s.quoted.keep(v, form)
	}
	return &v, err
}

// key consumes an object key and its colon. It gives up on a key with an
// escape or invalid UTF-8.
func (s *scanner) key() (string, error) {
	s.space()
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return "", errSlow
	}
	n, escaped := jsonscan.StringEnd(s.b[s.i+1:])
	if n < 0 || escaped || !jsonscan.ValidUTF8(s.b[s.i+1:s.i+1+n]) {
		return "", errSlow
	}
	k := string(s.b[s.i+1 : s.i+1+n])
	s.i += n + 2
	if !s.byte(':') {
		return "", errSlow
	}
	return k, nil
}

// object walks an object's members, calling member after each key with
// the scanner at the value; member consumes the value.
func (s *scanner) object(member func(key string) error) error {
	if !s.byte('{') {
		return errSlow
	}
	if s.byte('}') {
		return nil
	}
	for {
		k, err := s.key()
		if err != nil {
			return err
		}
		if err := member(k); err != nil {
			return err
		}
		if s.byte('}') {
			return nil
		}
		if !s.byte(',') {
			return errSlow
		}
	}
}

// array walks an array's elements, calling elem with the scanner at each.
func (s *scanner) array(elem func() error) error {
	if !s.byte('[') {
		return errSlow
	}
	if s.byte(']') {
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		if s.byte(']') {
			return nil
		}
		if !s.byte(',') {
			return errSlow
		}
	}
}

// unescape decodes a string body with escapes other than \u. It writes
// the string once, into a builder whose bytes become the string (a long
// reasoning string is not copied a second time). canonical reports
// whether every escape is the one AppendQuoted writes for its byte (not
// \/, \b or \f).
func unescape(body []byte) (v string, canonical bool, err error) {
	canonical = true
	var out strings.Builder
	out.Grow(len(body))
	for i := 0; i < len(body); {
		j := bytes.IndexByte(body[i:], '\\')
		if j < 0 {
			out.Write(body[i:])
			break
		}
		j += i
		out.Write(body[i:j])
		switch c := body[j+1]; c {
		case '"', '\\':
			out.WriteByte(c)
		case '/':
			out.WriteByte(c)
			canonical = false
		case 'b':
			out.WriteByte('\b')
			canonical = false
		case 'f':
			out.WriteByte('\f')
			canonical = false
		case 'n':
			out.WriteByte('\n')
		case 'r':
			out.WriteByte('\r')
		case 't':
			out.WriteByte('\t')
		default:
			return "", false, errSlow
		}
		i = j + 2
	}
	return out.String(), canonical, nil
}

// seen records the keys of one object, to give up on a key given twice.
type seen uint32

// add marks key bit k and reports whether it was new.
func (s *seen) add(k int) bool {
	if *s&(1<<k) != 0 {
		return false
	}
	*s |= 1 << k
	return true
}
