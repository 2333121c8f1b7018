package responses

import (
	"bytes"
	"fmt"
	"regexp"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/bedrock"
	"github.com/tidwall/gjson"
)

// Carried names the reasoning a request body's input carries: "reasoning"
// (a reasoning item), "encrypted_content" and "signature" (items holding
// them), in that order.
func (Dialect) Carried(body []byte) []string {
	var rs, enc, sig bool
	eachReasoning(body, func(it gjson.Result) {
		rs = true
		enc = enc || it.Get("encrypted_content").Str != ""
		sig = sig || it.Get("signature").Str != ""
	})
	out := []string{}
	for _, c := range []struct {
		on   bool
		name string
	}{{rs, "reasoning"}, {enc, "encrypted_content"}, {sig, "signature"}} {
		if c.on {
			out = append(out, c.name)
		}
	}
	return out
}

// eachReasoning calls f for every reasoning item of a request body's input.
func eachReasoning(body []byte, f func(gjson.Result)) {
	gjson.GetBytes(body, "input").ForEach(func(_, it gjson.Result) bool {
		if it.Get("type").Str == "reasoning" {
			f(it)
		}
		return true
	})
}

// The refusals Learn tells apart, matched case-insensitively on stable
// parts of the wording (research: provider-facts §28).
var (
	// encryptedRefused: OpenAI's invalid_encrypted_content ("The encrypted
	// content … could not be verified.", "… could not be decrypted or
	// parsed.", "… organization_id did not match the target
	// organization.") and a relay's "was not issued to this caller".
	encryptedRefused = regexp.MustCompile(`(?i)invalid_encrypted_content|encrypted content.{0,400}could not be (verified|decrypted)|encrypted.content.{0,40}was not issued to this caller`)
	// itemMissing: the service found an item without its partner:
	// "Item 'rs_…' of type 'reasoning' was provided without its required
	// following item.", "Item 'fc_…' of type 'function_call' was provided
	// without its required 'reasoning' item: 'rs_…'.", "Item with id
	// 'rs_…' not found. Items are not persisted when `store` is set to
	// false."
	itemMissing = regexp.MustCompile(`(?i)provided without its required|items are not persisted when`)
)

// Learn handles a refusal of the request's reasoning items (SPEC §6 style:
// recorded, persisted, retried once, never a loop).
//
// Encrypted content the service cannot verify or decrypt (tampered, sealed
// to another organisation or resource, or a relay's "not issued to this
// caller"), and a relayed Claude signature refused as invalid, will never
// become valid: the refused items are fingerprinted into the session's
// model config (SealedBlobs for encrypted content, RejectedSignatures for
// signatures), so that this request's retry and every later request of the
// session, after resume, compaction or a branch too, leave them out. The
// refused items are the reasoning items of the sent input that the body
// names (by item id, by the encrypted content, or by its excerpt of the
// first and last four characters); when it names none, every item of the
// request carrying the refused field. A refusal that adds no fingerprint
// (the same items refused again) is not retried, so no field is retried
// twice.
//
// A missing-item refusal ("provided without its required following item",
// "… without its required 'reasoning' item", "Items are not persisted when
// store is false") is never learnt: the shaping rules keep every reasoning
// item with the item that followed it and drop an item's id when its
// reasoning is left out, so such a refusal means the stored turn itself
// lost an item. Learning from it would make the engine drop more items on
// every later request; the refusal is final instead, with the provider's
// body, so that the broken history shows.
func (Dialect) Learn(s *engine.Session, _ *engine.Table, d engine.Decision, sent []byte, status int, body []byte) (string, bool) {
	if status < 400 || status > 499 || itemMissing.Match(body) {
		return "", false
	}
	model := d.Route.Model
	if m := gjson.GetBytes(sent, "model"); m.Type == gjson.String {
		model = m.Str
	}
	switch {
	case encryptedRefused.Match(body):
		fps := refused(sent, body, "encrypted_content", FieldEncrypted)
		if n := engine.AddFingerprints(&s.Config.SealedBlobs, fps...); n > 0 {
			return fmt.Sprintf("%s refused the encrypted content of %d reasoning item(s): recorded as refused for this session, retrying once without them", model, n), true
		}
	case bedrock.IsSignatureRejection(body):
		fps := refused(sent, body, "signature", FieldSignature)
		if n := engine.AddFingerprints(&s.Config.RejectedSignatures, fps...); n > 0 {
			return fmt.Sprintf("%s refused the signature of %d reasoning item(s): recorded as refused for this session, retrying once without them", model, n), true
		}
	}
	return "", false
}

// refused returns the fingerprints (of type typ) of the reasoning items of
// sent whose field a refusal body refuses: those it names, else all that
// carry the field.
func refused(sent, body []byte, field, typ string) []string {
	var named, all []string
	eachReasoning(sent, func(it gjson.Result) {
		v := it.Get(field).Str
		if v == "" {
			return
		}
		fp := engine.Fingerprint(typ, v)
		all = append(all, fp)
		id := it.Get("id").Str
		if mentions(body, v) || len(v) > 8 && mentions(body, v[:4]+"..."+v[len(v)-4:]) || len(id) > 3 && mentions(body, id) {
			named = append(named, fp)
		}
	})
	if len(named) > 0 {
		return named
	}
	return all
}

// mentions reports whether body holds s as a whole token: not inside a
// longer run of letters, digits, '_' or '-'.
func mentions(body []byte, s string) bool {
	for from := 0; ; {
		i := bytes.Index(body[from:], []byte(s))
		if i < 0 {
			return false
		}
		i += from
		end := i + len(s)
		if (i == 0 || !tokenByte(body[i-1])) && (end == len(body) || !tokenByte(body[end])) {
			return true
		}
		from = i + 1
	}
}

func tokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}
