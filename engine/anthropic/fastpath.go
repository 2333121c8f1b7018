package anthropic

import (
	"strings"

	"github.com/tidwall/gjson"
)

// Most of a long stream is content_block_delta events in one exact form.
// fastDelta recognises that form without a general JSON parse; anything
// else, including any irregularity, goes to the general path (gjson), so
// both paths accept exactly the same events and store the same bytes.
const deltaPrefix = `{"type":"content_block_delta","index":`

// fastDeltaKinds maps a delta type to the key of its string value.
var fastDeltaKinds = []struct{ typ, key string }{
	{"thinking_delta", "thinking"},
	{"text_delta", "text"},
	{"input_json_delta", "partial_json"},
	{"signature_delta", "signature"},
}

// fastDelta returns the index, delta type and string value of a
// content_block_delta event written exactly as
// {"type":"content_block_delta","index":N,"delta":{"type":T,"K":"V"}}
// (whitespace after it allowed); ok is false otherwise.
func fastDelta(data string) (idx int64, typ, value string, ok bool) {
	s, found := strings.CutPrefix(data, deltaPrefix)
	if !found {
		return 0, "", "", false
	}
	n := 0
	for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
		idx = idx*10 + int64(s[n]-'0')
		n++
	}
	if n == 0 || (n > 1 && s[0] == '0') {
		return 0, "", "", false
	}
	if s, found = strings.CutPrefix(s[n:], `,"delta":{"type":"`); !found {
		return 0, "", "", false
	}
	for _, k := range fastDeltaKinds {
		rest, found := strings.CutPrefix(s, k.typ)
		if !found {
			continue
		}
		if rest, found = strings.CutPrefix(rest, `","`); !found {
			return 0, "", "", false
		}
		if rest, found = strings.CutPrefix(rest, k.key); !found {
			return 0, "", "", false
		}
		if rest, found = strings.CutPrefix(rest, `":"`); !found {
			return 0, "", "", false
		}
		end, escaped := scanString(rest)
		if end < 0 || strings.TrimRight(rest[end+1:], " \t\r\n") != "}}" {
			return 0, "", "", false
		}
		value = rest[:end]
		if escaped {
			value = gjson.Parse(`"` + rest[:end+1]).Str
		}
		return idx, k.typ, value, true
	}
	return 0, "", "", false
}

// scanString finds the closing quote of a JSON string body; it returns -1
// for a control character, a bad escape or no closing quote, and whether
// the body has escapes.
func scanString(s string) (int, bool) {
	escaped := false
	for i := 0; i < len(s); i++ {
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

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
