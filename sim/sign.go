package sim

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
)

// signer issues and checks the simulator's signatures and sealed blobs. All
// of them are HMAC-SHA256 under one key derived from ("replaycheck-sim",
// seed, profile name), so anything issued by another profile or seed fails.
type signer struct {
	name string
	key  []byte
}

// macSize is the length of an HMAC-SHA256 tag.
const macSize = sha256.Size

// newSigner derives the key; an empty seed draws a random one.
func newSigner(name, seed string) (signer, error) {
	if seed == "" {
		var b [32]byte
		if _, err := rand.Read(b[:]); err != nil {
			return signer{}, fmt.Errorf("sim: random seed: %w", err)
		}
		seed = hex.EncodeToString(b[:])
	}
	m := hmac.New(sha256.New, []byte("replaycheck-sim"))
	m.Write([]byte(seed))
	m.Write([]byte{0})
	m.Write([]byte(name))
	return signer{name: name, key: m.Sum(nil)}, nil
}

func (g signer) mac(parts ...string) []byte {
	m := hmac.New(sha256.New, g.key)
	for i, p := range parts {
		if i > 0 {
			m.Write([]byte{0})
		}
		m.Write([]byte(p))
	}
	return m.Sum(nil)
}

// sign is the detached signature of a reasoning text:
// base64(HMAC(key, name + "\x00" + text)).
func (g signer) sign(text string) string {
	return base64.StdEncoding.EncodeToString(g.mac(g.name, text))
}

// verify reports whether sig is exactly the signature of text.
func (g signer) verify(text, sig string) bool {
	return hmac.Equal([]byte(sig), []byte(g.sign(text)))
}

// seal wraps a reasoning text into an opaque blob bound to a model:
// base64(model + "\x00" + text + "\x00" + HMAC(key, "sealed", name, model, text)).
// The model id stays readable so a foreign blob can be recognised.
func (g signer) seal(model, text string) string {
	b := make([]byte, 0, len(model)+len(text)+2+macSize)
	b = append(b, model...)
	b = append(b, 0)
	b = append(b, text...)
	b = append(b, 0)
	b = append(b, g.mac("sealed", g.name, model, text)...)
	return base64.StdEncoding.EncodeToString(b)
}

// sealed is an opened blob.
type sealed struct {
	model string
	text  string
	// genuine is true when the tag verifies: issued by this profile and seed
	// for exactly this model and text.
	genuine bool
}

// open parses a blob issued by seal (by any simulator). ok is false when the
// blob is not in the sealed format at all.
func (g signer) open(blob string) (s sealed, ok bool) {
	b, err := base64.StdEncoding.DecodeString(blob)
	if err != nil {
		return sealed{}, false
	}
	return g.openBytes(b)
}

func (g signer) openBytes(b []byte) (sealed, bool) {
	if len(b) < macSize+2 || b[len(b)-macSize-1] != 0 {
		return sealed{}, false
	}
	tag := b[len(b)-macSize:]
	body := string(b[:len(b)-macSize-1])
	model, text, found := strings.Cut(body, "\x00")
	if !found {
		return sealed{}, false
	}
	want := g.mac("sealed", g.name, model, text)
	return sealed{model: model, text: text, genuine: hmac.Equal(tag, want)}, true
}

// thought is a Gemini-style thought signature: a sealed blob with no model,
// so it carries the reasoning state itself (clients often drop the thought
// parts and keep only the signature).
func (g signer) thought(text string) string { return g.seal("", text) }

// dummyThoughtSignatures are the values Gemini documents for histories that
// never had signatures; they always pass validation.
var dummyThoughtSignatures = []string{"skip_thought_signature_validator", "context_engineering_is_the_way_to_go"}

// checkThought verifies a thought signature. Like Gemini (a protobuf bytes
// field) it accepts standard and URL-safe base64, padded or not, and the
// documented dummy values, which carry no text.
func (g signer) checkThought(sig string) (text string, ok bool) {
	for _, d := range dummyThoughtSignatures {
		if sig == d || sig == base64.StdEncoding.EncodeToString([]byte(d)) || sig == base64.RawURLEncoding.EncodeToString([]byte(d)) {
			return "", true
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		b, err := enc.DecodeString(sig)
		if err != nil {
			continue
		}
		s, parsed := g.openBytes(b)
		if !parsed || !s.genuine || s.model != "" {
			return "", false
		}
		return s.text, true
	}
	return "", false
}

// Encrypted content (the Responses API's encrypted_content) is a token in
// Fernet's layout, as OpenAI's "gAAAAA…" values are: version 0x80, an
// 8-byte big-endian timestamp (the fixed creation time), a 16-byte IV,
// the AES-128-CTR ciphertext of model + "\x00" + text, and an HMAC-SHA256
// tag over all of it, in URL-safe base64. Keys and IV derive from the
// signer's key (the IV from the model and text), so the same reasoning
// encrypts to the same token, whole or streamed.
const (
	tokenVersion = 0x80
	tokenHead    = 1 + 8 + aes.BlockSize
)

func (g signer) tokenKeys() (enc, mac []byte) {
	return g.mac("encrypted-content", "enc")[:16], g.mac("encrypted-content", "mac")
}

// encrypt issues the encrypted content of a reasoning text for a model.
func (g signer) encrypt(model, text string) string {
	encKey, macKey := g.tokenKeys()
	plain := append(append([]byte(model), 0), text...)
	b := make([]byte, tokenHead, tokenHead+len(plain)+macSize)
	b[0] = tokenVersion
	binary.BigEndian.PutUint64(b[1:9], created)
	copy(b[9:tokenHead], g.mac("encrypted-content", "iv", model, text))
	block, _ := aes.NewCipher(encKey)
	ct := make([]byte, len(plain))
	cipher.NewCTR(block, b[9:tokenHead]).XORKeyStream(ct, plain)
	b = append(b, ct...)
	m := hmac.New(sha256.New, macKey)
	m.Write(b)
	return base64.URLEncoding.EncodeToString(m.Sum(b))
}

// decrypt opens encrypted content. parsed is false when the value is not a
// token at all; genuine is true when its tag verifies (issued by this
// profile and seed, unaltered), and only then are model and text set.
func (g signer) decrypt(token string) (s sealed, parsed bool) {
	b, err := base64.URLEncoding.DecodeString(token)
	if err != nil || len(b) < tokenHead+macSize || b[0] != tokenVersion {
		return sealed{}, false
	}
	encKey, macKey := g.tokenKeys()
	body, tag := b[:len(b)-macSize], b[len(b)-macSize:]
	m := hmac.New(sha256.New, macKey)
	m.Write(body)
	if !hmac.Equal(tag, m.Sum(nil)) {
		return sealed{}, true
	}
	block, _ := aes.NewCipher(encKey)
	plain := make([]byte, len(body)-tokenHead)
	cipher.NewCTR(block, body[9:tokenHead]).XORKeyStream(plain, body[tokenHead:])
	model, text, found := strings.Cut(string(plain), "\x00")
	if !found {
		return sealed{}, true
	}
	return sealed{model: model, text: text, genuine: true}, true
}
