package sim

import (
	"strconv"
	"unicode/utf8"
)

// obj is a JSON object that keeps its members in insertion order, so a
// generated response reads like the provider's own and is byte-stable.
type obj []member

// member is one key of an obj.
type member struct {
	key string
	val any
}

// with returns o with key set to val appended.
func (o obj) with(key string, val any) obj { return append(o, member{key, val}) }

// arr is a JSON array.
type arr []any

// rawJSON is already-encoded JSON written as is.
type rawJSON string

// encode renders v as compact JSON. Supported values: obj, arr, string, int,
// bool, nil and rawJSON; anything else is a programming error and renders as
// null so a response is still well-formed.
func encode(v any) []byte { return appendJSON(nil, v) }

func appendJSON(b []byte, v any) []byte {
	switch x := v.(type) {
	case obj:
		b = append(b, '{')
		for i, m := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, m.key)
			b = append(b, ':')
			b = appendJSON(b, m.val)
		}
		return append(b, '}')
	case arr:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, e)
		}
		return append(b, ']')
	case string:
		return appendString(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case bool:
		return strconv.AppendBool(b, x)
	case rawJSON:
		return append(b, x...)
	default:
		return append(b, "null"...)
	}
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string without HTML escaping; invalid
// UTF-8 becomes U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, "\ufffd"...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}
