package anthropic

import (
	"strings"

	"github.com/replaycheck/replaycheck/engine/internal/jsonscan"
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
		end, escaped := jsonscan.StringEnd(rest)
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
