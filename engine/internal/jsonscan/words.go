package jsonscan

// Long JSON string bodies are mostly bytes that need no attention. The
// scanners here skip them eight at a time: each 8-byte word is tested for
// a quote, a backslash or a control byte at once, with the classic
// "has a zero byte" bit trick, and only a word that holds one is looked at
// byte by byte.

const (
	ones = 0x0101010101010101
	high = 0x8080808080808080
)

// PlainWords returns the length, a multiple of 8, of the run of whole
// 8-byte words at the start of s that hold no quote, backslash or control
// byte (below 0x20), and with ascii set no byte of 0x80 or above either:
// bytes a JSON string body holds as they are.
func PlainWords[T string | []byte](s T, ascii bool) int {
	mask := uint64(0)
	if ascii {
		mask = high
	}
	i := 0
	for ; len(s)-i >= 8; i += 8 {
		if w := word(s[i:]); special(w)|w&mask != 0 {
			break
		}
	}
	return i
}

// special has the high bit set in some byte if w holds a '"', a '\\' or a
// byte below 0x20, and is zero otherwise. (A byte's own high bit never
// counts: bytes of 0x80 and above are none of the three.)
func special(w uint64) uint64 {
	q := w ^ (ones * '"')
	b := w ^ (ones * '\\')
	return ((q - ones) &^ q & high) | ((b - ones) &^ b & high) | ((w - ones*0x20) &^ w & high)
}

// word loads the first 8 bytes of t, little-endian (one bounds check, one
// 8-byte load).
func word[T string | []byte](t T) uint64 {
	t = t[:8]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}
