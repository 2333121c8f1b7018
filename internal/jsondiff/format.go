package jsondiff

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxValueText is the longest value text a Difference carries in full.
const maxValueText = 120

// shorten returns text, or its first maxValueText bytes (cut at a UTF-8
// boundary) followed by "…(+N bytes)" where N counts the bytes left out.
func shorten(text []byte) string {
	if len(text) <= maxValueText {
		return string(text)
	}
	cut := maxValueText
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return string(text[:cut]) + "…(+" + strconv.Itoa(len(text)-cut) + " bytes)"
}

// Format renders diffs one per line, as
//
//	messages.1.reasoning: want "x" got (absent)
//
// The whole document is called "(root)". Lines are joined with "\n"; there
// is no trailing newline, and no diffs give "".
func Format(diffs []Difference) string {
	var b strings.Builder
	for j, d := range diffs {
		if j > 0 {
			b.WriteByte('\n')
		}
		path := d.Path
		if path == "" {
			path = "(root)"
		}
		b.WriteString(path)
		b.WriteString(": want ")
		b.WriteString(d.Want)
		b.WriteString(" got ")
		b.WriteString(d.Got)
	}
	return b.String()
}
