package jsonscan

// IsCompact reports whether a JSON text (already known to be valid) has no
// insignificant whitespace, so that compacting it would change nothing.
// String bodies are skipped a word at a time; only the bytes between
// values are looked at.
func IsCompact[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			return false
		case '"':
			n, _ := StringEnd(s[i+1:])
			if n < 0 {
				return false
			}
			i += n + 1
		}
	}
	return true
}
