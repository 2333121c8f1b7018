package jsonscan

// maxDepth bounds the nesting ObjectRest follows; deeper input is
// reported as not recognised, and the caller takes its general path.
const maxDepth = 32

// ObjectRest reports whether s completes a JSON object after one of its
// members: zero or more `,"key":value` members, then "}" and nothing but
// whitespace, whitespace allowed wherever JSON allows it. It is false if a
// key is one of reads, or has an escape (so one of reads cannot hide
// behind one). It accepts exactly what gjson.Valid accepts
// in that place, up to a nesting depth of 32.
func ObjectRest[T string | []byte](s T, reads []string) bool {
	i := skipSpace(s, 0)
	for i < len(s) {
		switch s[i] {
		case '}':
			return skipSpace(s, i+1) == len(s)
		case ',':
		default:
			return false
		}
		i = skipSpace(s, i+1)
		if i >= len(s) || s[i] != '"' {
			return false
		}
		n, escaped := StringEnd(s[i+1:])
		if n < 0 || escaped || oneOf(string(s[i+1:i+1+n]), reads) {
			return false
		}
		if i = skipSpace(s, i+n+2); i >= len(s) || s[i] != ':' {
			return false
		}
		if i = value(s, skipSpace(s, i+1), 0, false); i < 0 {
			return false
		}
		i = skipSpace(s, i)
	}
	return false
}

// value returns the index just after the JSON value starting at s[i], or
// -1 if there is none. With compact set, whitespace between its tokens
// counts as no JSON.
func value[T string | []byte](s T, i, depth int, compact bool) int {
	if i >= len(s) {
		return -1
	}
	switch c := s[i]; {
	case c == '"':
		n, _ := StringEnd(s[i+1:])
		if n < 0 {
			return -1
		}
		return i + n + 2
	case c == '{' || c == '[':
		if depth >= maxDepth {
			return -1
		}
		return container(s, i, depth+1, compact)
	case c == '-' || c >= '0' && c <= '9':
		return number(s, i)
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(s)-i >= len(lit) && string(s[i:i+len(lit)]) == lit {
			return i + len(lit)
		}
	}
	return -1
}

// container returns the index just after the object or array opening at
// s[i], or -1.
func container[T string | []byte](s T, i, depth int, compact bool) int {
	closer, object := byte(']'), s[i] == '{'
	if object {
		closer = '}'
	}
	i = gap(s, i+1, compact)
	if i < len(s) && s[i] == closer {
		return i + 1
	}
	for {
		if object {
			if i >= len(s) || s[i] != '"' {
				return -1
			}
			n, _ := StringEnd(s[i+1:])
			if n < 0 {
				return -1
			}
			if i = gap(s, i+n+2, compact); i >= len(s) || s[i] != ':' {
				return -1
			}
			i = gap(s, i+1, compact)
		}
		if i = value(s, i, depth, compact); i < 0 {
			return -1
		}
		if i = gap(s, i, compact); i >= len(s) {
			return -1
		}
		switch s[i] {
		case closer:
			return i + 1
		case ',':
			i = gap(s, i+1, compact)
		default:
			return -1
		}
	}
}

// gap skips the whitespace at s[i] unless compact forbids it.
func gap[T string | []byte](s T, i int, compact bool) int {
	if compact {
		return i
	}
	return skipSpace(s, i)
}

// number returns the index just after the JSON number starting at s[i]
// (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), or -1.
func number[T string | []byte](s T, i int) int {
	if s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		i = digits(s, i)
	default:
		return -1
	}
	if i < len(s) && s[i] == '.' {
		if j := digits(s, i+1); j > i+1 {
			i = j
		} else {
			return -1
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(s, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

// digits returns the index after the run of ASCII digits at s[i].
func digits[T string | []byte](s T, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace[T string | []byte](s T, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t') {
		i++
	}
	return i
}

// oneOf reports whether key is one of keys.
func oneOf(key string, keys []string) bool {
	for _, k := range keys {
		if key == k {
			return true
		}
	}
	return false
}
