package jsonscan

// Value returns the index just after the JSON value that starts at s[i]
// (no whitespace before it), or -1 if there is none or it nests deeper
// than 32 levels. It accepts exactly what encoding/json accepts as a value
// in that place, up to that depth.
func Value[T string | []byte](s T, i int) int { return value(s, i, 0) }

// SkipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func SkipSpace[T string | []byte](s T, i int) int { return skipSpace(s, i) }
