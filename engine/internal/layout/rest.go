package layout

import (
	"bytes"

	"github.com/replaycheck/replaycheck/engine/internal/jsonscan"
)

// The varying end of a stream's events is mostly the same bytes with other
// values: usage counts grow on every chunk, sequence numbers count up, and
// some providers pad every delta with a random string (OpenAI's
// "obfuscation"). Validating it from scratch on every event would cost more
// than the rest of the capture, so each layout keeps the last end it
// validated, with where its numbers and string values are, and an end that
// differs from it only in those values (never in a key) is known to be
// valid with the same keys.

// A rest is a validated varying end and the runs of its values.
type rest struct {
	bytes []byte
	runs  []digitRun
}

// A digitRun is a run of digits of a number in a rest, or the body of a
// string value.
type digitRun struct {
	start, end int
	// integer is set for the integer part of a number, where a leading
	// zero is only valid alone.
	integer bool
	// text is set for the body of a string value (between its quotes).
	text bool
}

// set makes r the validated end b, which must be valid (see
// jsonscan.ObjectRest), finding its numbers and string values.
func (r *rest) set(b []byte) {
	r.bytes = append(r.bytes[:0], b...)
	r.runs = r.runs[:0]
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case c == '"':
			n, _ := jsonscan.StringEnd(b[i+1:])
			if !isKey(b, i+n+2) {
				r.runs = append(r.runs, digitRun{start: i + 1, end: i + 1 + n, text: true})
			}
			i += n + 2
		case c == '-' || c >= '0' && c <= '9':
			i = r.number(b, i)
		default:
			i++
		}
	}
}

// isKey reports whether the string ending before b[i] is a key: a colon
// follows it.
func isKey(b []byte, i int) bool {
	for ; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			continue
		case ':':
			return true
		}
		return false
	}
	return false
}

// number records the digit runs of the valid number at b[i] and returns
// the index after it.
func (r *rest) number(b []byte, i int) int {
	if b[i] == '-' {
		i++
	}
	integer := true
	for {
		j := i
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		r.runs = append(r.runs, digitRun{start: i, end: j, integer: integer})
		integer = false
		// A fraction or an exponent (with its sign) follows, or the
		// number ends.
		switch {
		case j < len(b) && b[j] == '.':
			i = j + 1
		case j < len(b) && (b[j] == 'e' || b[j] == 'E'):
			i = j + 1
			if i < len(b) && (b[i] == '+' || b[i] == '-') {
				i++
			}
		default:
			return j
		}
	}
}

// sameButValues reports whether b is r's end with other digits in its
// numbers and other bodies in its string values: then b is valid too, with
// the same keys.
func (r *rest) sameButValues(b []byte) bool {
	i, j := 0, 0 // in r.bytes, in b
	for _, run := range r.runs {
		n := run.start - i
		if len(b)-j < n || !bytes.Equal(r.bytes[i:run.start], b[j:j+n]) {
			return false
		}
		j += n
		if run.text {
			// Mostly the value is unchanged: its same bytes, then the
			// closing quote. Else a valid string body up to its closing
			// quote, which the next literal bytes start with.
			if body := r.bytes[run.start:run.end]; len(b)-j > len(body) && b[j+len(body)] == '"' && bytes.Equal(b[j:j+len(body)], body) {
				i, j = run.end, j+len(body)
				continue
			}
			k, _ := jsonscan.StringEnd(b[j:])
			if k < 0 {
				return false
			}
			i, j = run.end, j+k
			continue
		}
		k := j
		for k < len(b) && b[k] >= '0' && b[k] <= '9' {
			k++
		}
		if k == j || run.integer && b[j] == '0' && k-j > 1 {
			return false
		}
		i, j = run.end, k
	}
	return bytes.Equal(r.bytes[i:], b[j:])
}
