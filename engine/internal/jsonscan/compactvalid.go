package jsonscan

import "bytes"

// IsCompactValid is IsCompact for a []byte: it finds each string's
// closing quote with bytes.IndexByte, many bytes a step, and looks at the
// backslashes before it, so a text that is mostly long strings is
// checked at about the speed of a search for a byte.
func IsCompactValid(b []byte) bool {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			return false
		case '"':
			n := ClosingQuote(b[i+1:])
			if n < 0 {
				return false
			}
			i += n + 1
		}
	}
	return true
}

// ClosingQuote returns the index of the quote that ends a valid string
// body (the bytes after its opening quote): the first quote not escaped,
// that is, not after an odd run of backslashes. It is -1 if there is none.
// Of a body that may be invalid it finds where the string would end:
// StringEnd of the bytes up to that quote confirms it.
func ClosingQuote(body []byte) int {
	for from := 0; ; {
		j := bytes.IndexByte(body[from:], '"')
		if j < 0 {
			return -1
		}
		j += from
		k := j
		for k > 0 && body[k-1] == '\\' {
			k--
		}
		if (j-k)%2 == 0 {
			return j
		}
		from = j + 1
	}
}
