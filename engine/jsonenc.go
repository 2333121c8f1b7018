package engine

import (
	"strings"
	"unicode/utf8"

	"github.com/replaycheck/replaycheck/engine/internal/jsonscan"
)

const hexDigits = "0123456789abcdef"

// AppendQuoted appends s to dst as a JSON string. It escapes like
// encoding/json except that it never HTML-escapes, so output is stable and
// cheap: invalid UTF-8 becomes U+FFFD, and U+2028/U+2029 are escaped.
func AppendQuoted(dst []byte, s string) []byte {
	if jsonscan.ValidUTF8(s) && !hasLineSeparator(s) {
		return appendQuotedValid(dst, s)
	}
	return appendQuotedAny(dst, s)
}

// appendQuotedAny is AppendQuoted of any string: it decodes every rune
// that is not ASCII, to replace invalid bytes and escape the separators.
func appendQuotedAny(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if i += jsonscan.PlainWords(s[i:], true); i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = appendEscapedByte(dst, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendQuotedValid is AppendQuoted of valid UTF-8 without U+2028 or
// U+2029, the common case: only ASCII bytes are escaped then, so the
// words of text, non-ASCII letters included, are skipped eight bytes at
// a time and never decoded.
func appendQuotedValid(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		if i += jsonscan.PlainWords(s[i:], false); i >= len(s) {
			break
		}
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = appendEscapedByte(dst, c)
		start = i + 1
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendEscapedByte appends the JSON escape of an ASCII byte that cannot
// stand in a string as itself: a quote, a backslash or a control byte.
func appendEscapedByte(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}

// hasLineSeparator reports whether s holds U+2028 or U+2029 (E2 80 A8,
// E2 80 A9), which AppendQuoted escapes.
func hasLineSeparator(s string) bool {
	for {
		i := strings.Index(s, "\xe2\x80")
		if i < 0 || i+2 >= len(s) {
			return false
		}
		if s[i+2] == 0xa8 || s[i+2] == 0xa9 {
			return true
		}
		s = s[i+2:]
	}
}
