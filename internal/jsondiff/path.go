package jsondiff

import "strconv"

// appendPath appends the gjson dot-syntax spelling of path.
func appendPath(dst []byte, path []segment) []byte {
	for j, s := range path {
		if j > 0 {
			dst = append(dst, '.')
		}
		if !s.isKey {
			dst = strconv.AppendInt(dst, int64(s.index), 10)
			continue
		}
		dst = appendEscapedKey(dst, s.key)
	}
	return dst
}

// appendEscapedKey appends key with a backslash before every byte gjson
// treats as path syntax; it agrees with gjson.Escape.
func appendEscapedKey(dst, key []byte) []byte {
	for _, c := range key {
		if !pathSafe(c) {
			dst = append(dst, '\\')
		}
		dst = append(dst, c)
	}
	return dst
}

// pathSafe reports whether c can appear unescaped in a gjson path key:
// letters, digits, '_', '-', ':', space and control bytes, and every byte
// of a multi-byte UTF-8 sequence.
func pathSafe(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c <= ' ' || c > '~' || c == '_' || c == '-' || c == ':'
}
