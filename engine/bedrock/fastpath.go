package bedrock

import (
	"bytes"

	"github.com/replaycheck/replaycheck/engine/internal/jsonscan"
)

// Most of a long ConverseStream is contentBlockDelta events carrying text
// or reasoning text in one exact form. fastDelta recognises that form
// without a general JSON parse; anything else, including any irregularity,
// goes to the general path (gjson), so both paths accept the same events
// and store the same bytes.
var (
	deltaPrefix     = []byte(`{"contentBlockIndex":`)
	textOpen        = []byte(`,"delta":{"text":"`)
	reasoningOpen   = []byte(`,"delta":{"reasoningContent":{"text":"`)
	paddingOpen     = []byte(`,"p":"`)
	reasoningClose  = []byte(`}}`)
	textCloseSuffix = []byte(`}`)
)

// fastDelta returns the block index, whether the delta is reasoning, and
// the text (still JSON-encoded: its string body, and whether that has
// escapes) of a payload written exactly as
// {"contentBlockIndex":N,"delta":{"text":"S"}[,"p":"…"]} or
// {"contentBlockIndex":N,"delta":{"reasoningContent":{"text":"S"}}[,"p":"…"]};
// ok is false otherwise.
func fastDelta(p []byte) (idx int64, reasoning bool, body []byte, escaped bool, ok bool) {
	s, found := bytes.CutPrefix(p, deltaPrefix)
	if !found {
		return 0, false, nil, false, false
	}
	n := 0
	for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
		idx = idx*10 + int64(s[n]-'0')
		n++
	}
	if n == 0 || (n > 1 && s[0] == '0') {
		return 0, false, nil, false, false
	}
	s = s[n:]
	if rest, found := bytes.CutPrefix(s, reasoningOpen); found {
		s, reasoning = rest, true
	} else if s, found = bytes.CutPrefix(s, textOpen); !found {
		return 0, false, nil, false, false
	}
	end, escaped := jsonscan.StringEnd(s)
	if end < 0 {
		return 0, false, nil, false, false
	}
	raw, rest := s[:end], s[end+1:]
	if reasoning {
		if rest, found = bytes.CutPrefix(rest, reasoningClose); !found {
			return 0, false, nil, false, false
		}
	} else if rest, found = bytes.CutPrefix(rest, textCloseSuffix); !found {
		return 0, false, nil, false, false
	}
	if pad, found := bytes.CutPrefix(rest, paddingOpen); found {
		i := 0
		for i < len(pad) && (pad[i] >= 'a' && pad[i] <= 'z' || pad[i] >= 'A' && pad[i] <= 'Z' || pad[i] >= '0' && pad[i] <= '9') {
			i++
		}
		if i == len(pad) || pad[i] != '"' {
			return 0, false, nil, false, false
		}
		rest = pad[i+1:]
	}
	if string(bytes.TrimRight(rest, " \t\r\n")) != "}" {
		return 0, false, nil, false, false
	}
	return idx, reasoning, raw, escaped, true
}
