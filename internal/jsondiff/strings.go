package jsondiff

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// Strings are decoded to WTF-8: UTF-8 in which a lone surrogate from a
// \uXXXX escape is kept as its own three-byte sequence (0xED 0xA0..0xBF
// 0x80..0xBF). Valid UTF-8 never contains those sequences, so decoding is
// one-to-one and a lone surrogate survives canonicalisation as an escape
// instead of silently becoming U+FFFD.

// readEscape decodes the validated escape sequence at s[0] == '\\' and
// returns the rune and the number of bytes used. A \u escape of a high
// surrogate followed by a \u escape of a low surrogate is one rune.
func readEscape(s []byte) (rune, int) {
	switch s[1] {
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		r := hex4(s[2:6])
		if r >= 0xD800 && r < 0xDC00 && len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
			if lo := hex4(s[8:12]); lo >= 0xDC00 && lo < 0xE000 {
				return utf16.DecodeRune(r, lo), 12
			}
		}
		return r, 6
	default: // '"', '\\', '/'
		return rune(s[1]), 2
	}
}

func hex4(s []byte) rune {
	return unhex(s[0])<<12 | unhex(s[1])<<8 | unhex(s[2])<<4 | unhex(s[3])
}

func isSurrogate(r rune) bool { return r >= 0xD800 && r < 0xE000 }

// appendWTF8 appends r to dst as UTF-8, or as WTF-8 for a lone surrogate.
func appendWTF8(dst []byte, r rune) []byte {
	if isSurrogate(r) {
		return append(dst, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
	}
	return utf8.AppendRune(dst, r)
}

// appendUnquoted decodes the validated body of a JSON string (without its
// quotes) to WTF-8.
func appendUnquoted(dst, body []byte) []byte {
	for {
		i := bytes.IndexByte(body, '\\')
		if i < 0 {
			return append(dst, body...)
		}
		dst = append(dst, body[:i]...)
		r, n := readEscape(body[i:])
		dst = appendWTF8(dst, r)
		body = body[i+n:]
	}
}

const hexDigits = "0123456789abcdef"

// appendRune appends the canonical JSON spelling of r inside a string:
// the short escapes \" \\ \b \f \n \r \t, \u00xx (lower-case hex) for other
// control characters, \udxxx for a lone surrogate, and the UTF-8 bytes of
// everything else. "/" and HTML-sensitive characters are not escaped.
func appendRune(dst []byte, r rune) []byte {
	switch r {
	case '"':
		return append(dst, '\\', '"')
	case '\\':
		return append(dst, '\\', '\\')
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	if r < 0x20 || isSurrogate(r) {
		return append(dst, '\\', 'u', hexDigits[r>>12], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
	}
	return utf8.AppendRune(dst, r)
}

// appendCanonicalBody appends the canonical spelling of a validated JSON
// string body (without quotes). Runs without escapes are already canonical
// (validation rejected raw control characters and invalid UTF-8), so only
// the escapes are rewritten.
func appendCanonicalBody(dst, body []byte) []byte {
	for {
		i := bytes.IndexByte(body, '\\')
		if i < 0 {
			return append(dst, body...)
		}
		dst = append(dst, body[:i]...)
		r, n := readEscape(body[i:])
		dst = appendRune(dst, r)
		body = body[i+n:]
	}
}

// appendQuotedWTF8 appends s, a decoded WTF-8 string, as a canonical JSON
// string with quotes. It agrees with appendCanonicalBody: for any body b,
// appendQuotedWTF8(appendUnquoted(b)) spells the same bytes as
// appendCanonicalBody(b) inside quotes.
func appendQuotedWTF8(dst, s []byte) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0:
			dst = append(dst, s[start:i]...)
			r := rune(c&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			dst = appendRune(dst, r)
			i += 3
			start = i
		case c < 0x20 || c == '"' || c == '\\':
			dst = append(dst, s[start:i]...)
			dst = appendRune(dst, rune(c))
			i++
			start = i
		default:
			i++
		}
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
