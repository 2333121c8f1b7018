package engine

import (
	"crypto/sha256"
	"encoding/hex"
)

// Fingerprint identifies an opaque block without storing it: the SHA-256
// hex digest of "<type>\x00<value>", where type is the Anthropic-format
// block type ("thinking", "redacted_thinking") or the Responses reasoning
// item's field ("reasoning.encrypted_content", "reasoning.signature") and
// value its signature, data or encrypted content. [ModelConfig] keeps
// fingerprints of signed blocks a provider rejected (RejectedSignatures)
// and of blobs sealed to another region or model (SealedBlobs); a block
// with an empty value has no fingerprint.
func Fingerprint(typ, value string) string {
	if value == "" {
		return ""
	}
	h := sha256.New()
	h.Write([]byte(typ))
	h.Write([]byte{0})
	h.Write([]byte(value))
	return hex.EncodeToString(h.Sum(nil))
}
