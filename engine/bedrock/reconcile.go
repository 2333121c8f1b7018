package bedrock

import (
	"encoding/json"
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/internal/jsonscan"
	"github.com/tidwall/gjson"
)

// Reshape reconciles an already-built request body with what the session
// has learnt (SPEC §3.2, §4.2): reasoning blocks whose fingerprints are in
// SealedBlobs or RejectedSignatures leave the assistant messages, a message
// left empty is dropped and same-role neighbours merge. Everything else
// stays byte for byte, so reconciling twice changes nothing the second
// time.
func (Dialect) Reshape(body []byte, s *engine.Session, _ engine.Decision, _ engine.Request) ([]byte, error) {
	if !gjson.ValidBytes(body) {
		return nil, engine.NotJSON("bedrock: request body", body)
	}
	arr := gjson.GetBytes(body, "messages")
	if !arr.IsArray() {
		return nil, fmt.Errorf("bedrock: request body has no messages array")
	}
	p := plan{sealed: s.Config.SealedBlobs, rejected: s.Config.RejectedSignatures}
	var msgs []wireMsg
	arr.ForEach(func(_, m gjson.Result) bool {
		w := wireMsg{role: m.Get("role").Str}
		m.Get("content").ForEach(func(_, b gjson.Result) bool {
			if w.role == "assistant" && p.drops(b) {
				return true
			}
			w.blocks = append(w.blocks, json.RawMessage(b.Raw))
			return true
		})
		msgs = append(msgs, w)
		return true
	})
	return jsonscan.ReplaceKey(body, "messages", appendMessages(nil, mergeRoles(msgs))), nil
}

// drops reports whether a wire reasoning block is sealed or rejected.
func (p plan) drops(b gjson.Result) bool {
	if data := b.Get("reasoningContent.redactedContent").Str; data != "" {
		fp := engine.Fingerprint("redacted_thinking", data)
		return p.has(p.sealed, fp) || p.has(p.rejected, fp)
	}
	if sig := b.Get("reasoningContent.reasoningText.signature").Str; sig != "" {
		return p.has(p.rejected, engine.Fingerprint("thinking", sig))
	}
	return false
}
