package jsonscan

// Value returns the index just after the JSON value that starts at s[i]
// (no whitespace before it), or -1 if there is none or it nests deeper
// than 32 levels. It accepts exactly what encoding/json accepts as a value
// in that place, up to that depth.
func Value[T string | []byte](s T, i int) int { return value(s, i, 0, false) }

// CompactValue reports whether s is one JSON value, as Value accepts it,
// with no whitespace between its tokens: what encoding/json's compacting
// leaves as it is. It is Value and IsCompact in one pass.
func CompactValue[T string | []byte](s T) bool { return value(s, 0, 0, true) == len(s) }

// SkipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func SkipSpace[T string | []byte](s T, i int) int { return skipSpace(s, i) }
