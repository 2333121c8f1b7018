package engine

import "github.com/replaycheck/replaycheck/engine/internal/jsonscan"

// JSONValueEnd returns the index just after the JSON value that starts at
// b[i] (no whitespace before it), or -1 if there is none or it nests
// deeper than 32 levels. It accepts exactly what encoding/json accepts as
// a value in that place, up to that depth; a caller that gets -1 asks
// encoding/json, which words the error. It is the validator the session
// parser uses, for readers outside the engine (the engine protocol).
func JSONValueEnd(b []byte, i int) int { return jsonscan.Value(b, i) }

// IsCompactJSON reports whether b is one JSON value, as JSONValueEnd
// accepts it, with no insignificant whitespace: what encoding/json writes
// a json.RawMessage as, byte for byte (it compacts it). One pass.
func IsCompactJSON(b []byte) bool { return jsonscan.CompactValue(b) }

// IsCompactValidJSON is IsCompactJSON for b already known to be one valid
// JSON value (a body the reference engine shaped): it looks only for
// whitespace between tokens, finding each string's end with a search for
// a quote, at about the speed of a byte search.
func IsCompactValidJSON(b []byte) bool { return jsonscan.IsCompactValid(b) }

// ParseSessionPrefix reads the session document that starts at b[0] (an
// object or a bare array, no whitespace before it) in one pass and
// returns it with the number of bytes it takes: what ParseSession(b[:n])
// returns (raw values are copies when q is nil). ok is false when the one-pass
// parser gives up (anything encoding/json would read with a twist, a
// syntax error) or the document is not a valid session; the caller then
// finds the value's end itself and calls ParseSession, which decides and
// words every error. q, when not nil, keeps the JSON forms of the
// session's long reasoning strings, as [ParseSessionQuoted] does; they
// and the session's raw values share b's bytes then.
func ParseSessionPrefix(b []byte, q *QuotedStrings) (s *Session, n int, ok bool) {
	if len(b) == 0 {
		return nil, 0, false
	}
	sc := scanner{b: b, quoted: q}
	var sess Session
	var err error
	if b[0] == '[' {
		sess.Messages, err = sc.messages()
	} else {
		err = sc.sessionObject(&sess)
	}
	if err == nil {
		err = sc.decodeLater()
	}
	if err != nil || checkParsed(&sess) != nil {
		q.reset()
		return nil, 0, false
	}
	return &sess, sc.i, true
}
