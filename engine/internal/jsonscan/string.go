package jsonscan

// StringEnd finds the closing quote of a JSON string body (the bytes after
// the opening quote). It returns the quote's index, or -1 for a control
// character, a bad escape or no closing quote, and whether the body has
// escapes.
func StringEnd[T string | []byte](s T) (end int, escaped bool) {
	for i := 0; i < len(s); i++ {
		if i += PlainWords(s[i:], false); i >= len(s) {
			break
		}
		if plain[s[i]] {
			continue
		}
		switch c := s[i]; {
		case c == '"':
			return i, escaped
		case c < 0x20:
			return -1, false
		case c == '\\':
			escaped = true
			if i+1 >= len(s) {
				return -1, false
			}
			i++
			switch s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) || !isHex(s[i+3]) || !isHex(s[i+4]) {
					return -1, false
				}
				i += 4
			default:
				return -1, false
			}
		}
	}
	return -1, false
}

// plain marks the bytes a JSON string body holds as they are.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
