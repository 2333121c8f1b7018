package gemini

import (
	"strings"

	"github.com/replaycheck/replaycheck/engine/internal/jsonscan"
	"github.com/tidwall/gjson"
)

// Most of a long stream is chunks whose first candidate holds one text
// part (a thought or the answer) and nothing else the capture reads.
// fastChunk recognises that form without walking the chunk: the text
// string is checked byte by byte, the chunk must be closed, and anything
// else (a signature, a function call, a finishReason, an error, another
// spacing, a malformed string) goes to the general path, which validates
// the whole chunk, so both paths store the same message.
var chunkPrefixes = []string{
	`{"candidates": [{"content": {"parts": [{"text": "`,
	`{"candidates":[{"content":{"parts":[{"text":"`,
}

var thoughtCloses = []string{`,"thought": true}]`, `,"thought":true}]`}

// fastChunk returns the text of the single text part of a chunk written in
// the common form, and whether it is a thought.
func fastChunk(data string) (text string, thought, ok bool) {
	var s string
	found := false
	for _, p := range chunkPrefixes {
		if s, found = strings.CutPrefix(data, p); found {
			break
		}
	}
	if !found {
		return "", false, false
	}
	end, escaped := jsonscan.StringEnd(s)
	if end < 0 {
		return "", false, false
	}
	raw, rest := s[:end], s[end+1:]
	if r, ok := strings.CutPrefix(rest, "}]"); ok {
		rest = r
	} else {
		for _, c := range thoughtCloses {
			if r, ok := strings.CutPrefix(rest, c); ok {
				rest, thought, found = r, true, true
				break
			}
			found = false
		}
		if !found {
			return "", false, false
		}
	}
	if namesKey(rest) || !strings.HasSuffix(strings.TrimSpace(rest), "}") {
		return "", false, false
	}
	if escaped {
		return gjson.Parse(`"` + raw + `"`).Str, thought, true
	}
	return raw, thought, true
}

// namesKey reports whether s holds a "finishReason" or "error" key (or
// string), jumping from quote to quote.
func namesKey(s string) bool {
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			return false
		}
		s = s[i+1:]
		if strings.HasPrefix(s, `finishReason"`) || strings.HasPrefix(s, `error"`) {
			return true
		}
	}
}
