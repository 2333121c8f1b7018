package jsonscan

import (
	"math/bits"
	"unicode/utf8"
)

// ValidUTF8 reports whether s is valid UTF-8, as utf8.Valid does. It
// skips ASCII eight bytes at a time between the multi-byte runes, where
// utf8.Valid goes byte by byte from the first of them on: prose with an
// accent in every line is read at the speed of ASCII.
func ValidUTF8[T string | []byte](s T) bool {
	for i := 0; i < len(s); {
		if len(s)-i >= 8 {
			if w := word(s[i:]) & high; w != 0 {
				i += bits.TrailingZeros64(w) / 8 // to the first byte of 0x80 or above
			} else {
				i += 8
				continue
			}
		} else if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := decodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			return false
		}
		i += size
	}
	return true
}

// decodeRune is utf8.DecodeRune of a string or a byte slice.
func decodeRune[T string | []byte](s T) (rune, int) {
	if b, ok := any(s).([]byte); ok {
		return utf8.DecodeRune(b)
	}
	return utf8.DecodeRuneInString(string(s))
}
