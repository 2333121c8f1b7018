package anthropic

import (
	"encoding/json"
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/internal/jsonscan"
	"github.com/tidwall/gjson"
)

// Reshape builds the retry of a request refused for a thinking signature
// (SPEC §3.2, §4.1). Blocks whose fingerprints the session records as
// rejected leave the assistant messages; when the body holds none of them
// (a route that repairs one request, or nothing fingerprintable), every
// thinking and redacted_thinking block leaves instead. An assistant
// message left empty is dropped and the user messages around it merge.
// Everything else stays byte for byte.
func (Dialect) Reshape(body []byte, s *engine.Session, _ engine.Decision, _ engine.Request) ([]byte, error) {
	if !gjson.ValidBytes(body) {
		return nil, engine.NotJSON("anthropic: request body", body)
	}
	arr := gjson.GetBytes(body, "messages")
	if !arr.IsArray() {
		return nil, fmt.Errorf("anthropic: request body has no messages array")
	}
	rejected := s.Config.RejectedSignatures
	isRejected := func(b gjson.Result) bool {
		var fp string
		switch b.Get("type").Str {
		case "thinking":
			fp = engine.Fingerprint("thinking", b.Get("signature").Str)
		case "redacted_thinking":
			fp = engine.Fingerprint("redacted_thinking", b.Get("data").Str)
		}
		return fp != "" && engine.HasFingerprint(rejected, fp)
	}
	stripAll := true
	engine.EachAssistantBlock(body, func(b gjson.Result) {
		if isRejected(b) {
			stripAll = false
		}
	})
	var msgs []wireMsg
	arr.ForEach(func(_, m gjson.Result) bool {
		w := wireMsg{role: m.Get("role").Str}
		c := m.Get("content")
		if w.role != "assistant" || !c.IsArray() {
			w.raw = json.RawMessage(c.Raw)
			msgs = append(msgs, w)
			return true
		}
		c.ForEach(func(_, b gjson.Result) bool {
			t := b.Get("type").Str
			if (t == "thinking" || t == "redacted_thinking") && (stripAll || isRejected(b)) {
				return true
			}
			w.blocks = append(w.blocks, json.RawMessage(b.Raw))
			return true
		})
		if len(w.blocks) > 0 {
			msgs = append(msgs, w)
		}
		return true
	})
	return jsonscan.ReplaceKey(body, "messages", appendMessages(nil, mergeUsers(msgs))), nil
}

// mergeUsers merges neighbouring user messages into one, turning their
// contents into blocks.
func mergeUsers(in []wireMsg) []wireMsg {
	var out []wireMsg
	for _, m := range in {
		n := len(out)
		if n == 0 || m.role != "user" || out[n-1].role != "user" {
			out = append(out, m)
			continue
		}
		prev := &out[n-1]
		if prev.raw != nil {
			prev.blocks, _ = contentBlocks(prev.raw)
			prev.raw = nil
		}
		if m.raw != nil {
			bs, _ := contentBlocks(m.raw)
			prev.blocks = append(prev.blocks, bs...)
		} else {
			prev.blocks = append(prev.blocks, m.blocks...)
		}
	}
	return out
}
