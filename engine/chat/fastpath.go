package chat

import (
	"strings"

	"github.com/replaycheck/replaycheck/engine/internal/jsonscan"
	"github.com/tidwall/gjson"
)

// fastDelta recognises the chunk shape that carries almost every byte of a
// long stream — one choice whose delta holds a single string field:
//
//	{…,"choices":[{"index":0,"delta":{"reasoning_content":"…"},…}]}
//
// and returns the field and its decoded value without parsing the chunk as
// a whole. Anything else (several fields, tool calls, arrays, a second
// choice, an error object, a malformed string) returns ok false, and the
// caller takes the general path, which validates the whole chunk.
func fastDelta(data string) (field, value string, ok bool) {
	const marker = `"delta":{"`
	choices := strings.Index(data, `"choices":[{`)
	if choices < 0 || strings.Contains(data[:choices], `"error"`) {
		return "", "", false
	}
	i := strings.Index(data[choices:], marker)
	if i < 0 || !choiceZero(data[choices:choices+i]) {
		return "", "", false
	}
	rest := data[choices+i+len(marker):]
	end := strings.IndexByte(rest, '"')
	if end < 0 {
		return "", "", false
	}
	field = rest[:end]
	switch field {
	case "content", "reasoning_content", "reasoning", "reasoning_text":
	default:
		return "", "", false
	}
	rest = rest[end+1:]
	if !strings.HasPrefix(rest, `:"`) {
		return "", "", false
	}
	n, escaped := jsonscan.StringEnd(rest[2:])
	if n < 0 || len(rest) < 2+n+2 || rest[2+n+1] != '}' {
		return "", "", false
	}
	// After the string: the delta closes, and nothing else of the chunk
	// may be another choice or delta; the chunk itself must be closed.
	tail := rest[2+n+1:]
	if strings.Contains(tail, `"delta"`) || strings.Contains(tail, `"choices"`) || !endsWithBrace(tail) {
		return "", "", false
	}
	raw := rest[2 : 2+n]
	if !escaped {
		return field, raw, true
	}
	// Unescape as the general path (gjson) does, so both store the same
	// bytes, invalid UTF-8 included.
	return field, gjson.Parse(rest[1 : 2+n+1]).Str, true
}

// choiceZero reports whether the choice opening in s (from `"choices":[{`
// up to its delta) is choice 0: no index key, or index 0.
func choiceZero(s string) bool {
	k := strings.Index(s, `"index":`)
	if k < 0 {
		return true
	}
	v := strings.TrimLeft(s[k+len(`"index":`):], " ")
	return strings.HasPrefix(v, "0") && (len(v) == 1 || v[1] < '0' || v[1] > '9')
}

// endsWithBrace reports whether s ends with "}" before any trailing
// whitespace: the chunk object is closed.
func endsWithBrace(s string) bool {
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ' ', '\t', '\r', '\n':
			continue
		case '}':
			return true
		}
		return false
	}
	return false
}
