package engine

import "unsafe"

// QuotedStrings are the JSON forms that the long reasoning strings of a
// parsed session had in its document, each kept only where it is the form
// [AppendQuoted] writes for the string: shaping copies a form instead of
// escaping its string again, the same bytes either way. A form is found by
// the string itself, the very bytes the parser made, so a field set to
// another string since is escaped as usual. The forms share the parsed
// document's bytes, which must not change while they are in use.
//
// The zero value and nil keep no form.
type QuotedStrings struct {
	forms map[*byte]quotedForm
}

// quotedForm is one string's JSON form; n is the string's length, to tell
// the string from a shorter one starting at the same byte.
type quotedForm struct {
	n    int
	json []byte
}

// minQuoted is the shortest string whose form is kept: escaping a short
// one costs less than finding its form.
const minQuoted = 256

// AppendQuoted appends s as a JSON string, as [AppendQuoted] does: the
// form s had in the parsed document when q keeps it.
func (q *QuotedStrings) AppendQuoted(dst []byte, s string) []byte {
	if q != nil && len(s) >= minQuoted {
		if f, ok := q.forms[unsafe.StringData(s)]; ok && f.n == len(s) {
			return append(dst, f.json...)
		}
	}
	return AppendQuoted(dst, s)
}

// Len is the number of forms q keeps.
func (q *QuotedStrings) Len() int {
	if q == nil {
		return 0
	}
	return len(q.forms)
}

// keep records form, quotes included, as the JSON form of s.
func (q *QuotedStrings) keep(s string, form []byte) {
	if q.forms == nil {
		q.forms = make(map[*byte]quotedForm)
	}
	q.forms[unsafe.StringData(s)] = quotedForm{n: len(s), json: form}
}

// reset forgets every form (the parse they came from was given up).
func (q *QuotedStrings) reset() {
	if q != nil {
		q.forms = nil
	}
}
