package report

import (
	"fmt"
	"strings"
	"unicode"
)

// lines normalises line ends to "\n" and drops leading blank lines and trailing whitespace, for
// text shown as a block.
func lines(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.TrimLeft(strings.TrimRight(s, "\n \t"), "\n")
}

// paragraph collapses every run of whitespace, line ends included, to one space.
func paragraph(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// longestRun returns the length of the longest run of r in s.
func longestRun(s string, r rune) int {
	longest, run := 0, 0
	for _, c := range s {
		if c == r {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// printable replaces control characters other than tab and newline with a visible escape
// ("\x1b"), so provider text cannot drive a terminal, and invalid UTF-8 with U+FFFD.
func printable(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if !strings.ContainsFunc(s, isHiddenControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isHiddenControl(r) {
			fmt.Fprintf(&b, "\\x%02x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isHiddenControl reports whether r is a C0 or C1 control character other than tab and newline.
func isHiddenControl(r rune) bool {
	return r != '\t' && r != '\n' && unicode.IsControl(r)
}

// xmlText returns s with line ends normalised to "\n" and every character XML 1.0 cannot carry
// (most control characters, invalid UTF-8, U+FFFE and U+FFFF) replaced by U+FFFD.
func xmlText(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n':
			return r
		case r < 0x20, r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE || r == 0xFFFF:
			return '\uFFFD'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}
