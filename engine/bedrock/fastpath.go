package bedrock

import (
	"bytes"

	"github.com/replaycheck/replaycheck/engine/internal/jsonscan"
	"github.com/replaycheck/replaycheck/engine/internal/layout"
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
// the text of a payload written exactly as
// {"contentBlockIndex":N,"delta":{"text":"S"}[,"p":"…"]} or
// {"contentBlockIndex":N,"delta":{"reasoningContent":{"text":"S"}}[,"p":"…"]};
// ok is false otherwise.
func fastDelta(p []byte) (idx int64, reasoning bool, text layout.Piece, ok bool) {
	s, found := bytes.CutPrefix(p, deltaPrefix)
	if !found {
		return 0, false, layout.Piece{}, false
	}
	n := 0
	for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
		idx = idx*10 + int64(s[n]-'0')
		n++
	}
	if n == 0 || (n > 1 && s[0] == '0') {
		return 0, false, layout.Piece{}, false
	}
	s = s[n:]
	if rest, found := bytes.CutPrefix(s, reasoningOpen); found {
		s, reasoning = rest, true
	} else if s, found = bytes.CutPrefix(s, textOpen); !found {
		return 0, false, layout.Piece{}, false
	}
	end, escaped := jsonscan.StringEnd(s)
	if end < 0 {
		return 0, false, layout.Piece{}, false
	}
	// s is a suffix of p that starts just after the value's opening quote.
	at := len(p) - len(s)
	quoted, rest := p[at-1:at+end+1], s[end+1:]
	if reasoning {
		if rest, found = bytes.CutPrefix(rest, reasoningClose); !found {
			return 0, false, layout.Piece{}, false
		}
	} else if rest, found = bytes.CutPrefix(rest, textCloseSuffix); !found {
		return 0, false, layout.Piece{}, false
	}
	if pad, found := bytes.CutPrefix(rest, paddingOpen); found {
		i := 0
		for i < len(pad) && (pad[i] >= 'a' && pad[i] <= 'z' || pad[i] >= 'A' && pad[i] <= 'Z' || pad[i] >= '0' && pad[i] <= '9') {
			i++
		}
		if i == len(pad) || pad[i] != '"' {
			return 0, false, layout.Piece{}, false
		}
		rest = pad[i+1:]
	}
	if string(bytes.TrimRight(rest, " \t\r\n")) != "}" {
		return 0, false, layout.Piece{}, false
	}
	return idx, reasoning, layout.NewPiece(quoted, escaped), true
}
