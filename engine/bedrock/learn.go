package bedrock

import (
	"fmt"
	"regexp"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

var (
	// A sealed-blob refusal (research: hermes-semantics §4.2): a word
	// starting with "validation", "encrypted" or "redacted", and one of the
	// phrases saying the blob belongs to another region or model.
	sealedValidation = regexp.MustCompile(`(?is)\bvalidation`)
	sealedBlob       = regexp.MustCompile(`(?is)encrypted|redacted`)
	sealedWhere      = regexp.MustCompile(`(?is)different region|not valid for this model|created it|reformat your input`)
	// invalidSignature matches "Invalid signature in thinking block", with or
	// without backticks (Bedrock drops them).
	invalidSignature = regexp.MustCompile("(?i)invalid\\s+`?signature`?\\s+in\\s+`?thinking`?\\s+block")
)

// IsSealedRejection reports whether a refusal says replayed encrypted or
// redacted reasoning is sealed to another region or model: a
// ValidationException (named in the text, or a 400, since the REST body
// {"message":…} leaves the type to the x-amzn-ErrorType header) about
// encrypted or redacted content, in one of the known phrasings.
func IsSealedRejection(status int, body []byte) bool {
	return (status == 400 || sealedValidation.Match(body)) && sealedBlob.Match(body) && sealedWhere.Match(body)
}

// IsSignatureRejection reports whether a refusal says a thinking block's
// signature is invalid.
func IsSignatureRejection(body []byte) bool { return invalidSignature.Match(body) }

// Carried names the reasoning a request body carries on assistant
// messages: "reasoningText", "signature" (a signed reasoningText) and
// "redactedContent", in that order.
func (Dialect) Carried(body []byte) []string {
	var text, sig, red bool
	engine.EachAssistantBlock(body, func(b gjson.Result) {
		rc := b.Get("reasoningContent")
		text = text || rc.Get("reasoningText").Exists()
		sig = sig || rc.Get("reasoningText.signature").Str != ""
		red = red || rc.Get("redactedContent").Exists()
	})
	out := []string{}
	for _, c := range []struct {
		on   bool
		name string
	}{{text, "reasoningText"}, {sig, "signature"}, {red, "redactedContent"}} {
		if c.on {
			out = append(out, c.name)
		}
	}
	return out
}

// Learn recognises two refusals a resend can avoid (SPEC §4.2). A
// ValidationException about sealed encrypted or redacted reasoning records
// the fingerprints of the redactedContent blobs the request replayed in
// the session's SealedBlobs; an "Invalid signature in thinking block"
// refusal records the fingerprints of its signed blocks in
// RejectedSignatures. Either way the caller resends once without them;
// when the request held no such block not already recorded, a resend
// cannot help and nothing is learnt.
func (Dialect) Learn(s *engine.Session, _ *engine.Table, d engine.Decision, sent []byte, status int, body []byte) (string, bool) {
	if status < 400 || status > 499 {
		return "", false
	}
	model := d.Route.Model
	switch {
	case IsSealedRejection(status, body):
		var fps []string
		engine.EachAssistantBlock(sent, func(b gjson.Result) {
			if data := b.Get("reasoningContent.redactedContent").Str; data != "" {
				fps = append(fps, engine.Fingerprint("redacted_thinking", data))
			}
		})
		if n := engine.AddFingerprints(&s.Config.SealedBlobs, fps...); n > 0 {
			return fmt.Sprintf("%s rejected replayed encrypted reasoning (sealed to the model/region that minted it): recorded %d blob(s), dropping them and resending once; visible reasoning text is kept", model, n), true
		}
	case IsSignatureRejection(body):
		var fps []string
		engine.EachAssistantBlock(sent, func(b gjson.Result) {
			if sig := b.Get("reasoningContent.reasoningText.signature").Str; sig != "" {
				fps = append(fps, engine.Fingerprint("thinking", sig))
			}
			if data := b.Get("reasoningContent.redactedContent").Str; data != "" {
				fps = append(fps, engine.Fingerprint("redacted_thinking", data))
			}
		})
		if n := engine.AddFingerprints(&s.Config.RejectedSignatures, fps...); n > 0 {
			return fmt.Sprintf("%s rejected a thinking signature: recorded %d signed block(s), resending once without them", model, n), true
		}
	}
	return "", false
}
