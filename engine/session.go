package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// A Session is a conversation: its stored history and its model config.
type Session struct {
	ID       string      `json:"id,omitempty"`
	Messages []Message   `json:"messages"`
	Config   ModelConfig `json:"model_config"`
}

// ModelConfig is what a session has learnt about its routes (SPEC §6, §4.1):
// carriers refused per (provider, host, model) and fingerprints of signed
// thinking blocks a provider rejected. It is persisted with the session.
type ModelConfig struct {
	RejectedCarriers   []CarrierRejection `json:"rejected_carriers,omitempty"`
	RejectedSignatures []string           `json:"rejected_signatures,omitempty"`
	// SealedBlobs lists fingerprints of encrypted/redacted blobs a service
	// rejected as sealed to another region or model (SPEC §4.2), and of
	// Responses reasoning items whose encrypted_content the service could
	// not verify or decrypt.
	SealedBlobs []string `json:"sealed_blobs,omitempty"`
}

// A CarrierRejection records the carriers a route refused.
type CarrierRejection struct {
	RouteKey
	Carriers []Carrier `json:"carriers"`
}

// RejectedFor returns the carriers recorded as refused for a route key.
func (c ModelConfig) RejectedFor(k RouteKey) CarrierSet {
	for _, r := range c.RejectedCarriers {
		if r.RouteKey == k {
			return NewCarrierSet(r.Carriers...)
		}
	}
	return 0
}

// AddRejection records carriers as refused for k and returns those that
// were not recorded before. Entries stay sorted by key.
func (c *ModelConfig) AddRejection(k RouteKey, s CarrierSet) CarrierSet {
	old := c.RejectedFor(k)
	added := s.Minus(old)
	if added.Empty() {
		return 0
	}
	all := old.Union(s).List()
	for i := range c.RejectedCarriers {
		if c.RejectedCarriers[i].RouteKey == k {
			c.RejectedCarriers[i].Carriers = all
			return added
		}
	}
	c.RejectedCarriers = append(c.RejectedCarriers, CarrierRejection{RouteKey: k, Carriers: all})
	slices.SortFunc(c.RejectedCarriers, func(a, b CarrierRejection) int {
		return strings.Compare(a.Provider+"\x00"+a.Host+"\x00"+a.Model, b.Provider+"\x00"+b.Host+"\x00"+b.Model)
	})
	return added
}

// AddFingerprints adds fingerprints to a sorted set and returns how many
// were new.
func AddFingerprints(set *[]string, fps ...string) int {
	n := 0
	for _, fp := range fps {
		if i, found := slices.BinarySearch(*set, fp); !found {
			*set = slices.Insert(*set, i, fp)
			n++
		}
	}
	return n
}

// HasFingerprint reports whether fp is in a sorted fingerprint set.
func HasFingerprint(set []string, fp string) bool {
	_, found := slices.BinarySearch(set, fp)
	return found
}

// Clone returns a deep copy of the session.
func (s *Session) Clone() *Session {
	c := &Session{ID: s.ID, Messages: make([]Message, len(s.Messages))}
	for i, m := range s.Messages {
		c.Messages[i] = m.Clone()
	}
	c.Config = s.Config.Clone()
	return c
}

// Clone returns a deep copy of the config.
func (c ModelConfig) Clone() ModelConfig {
	out := ModelConfig{
		RejectedSignatures: slices.Clone(c.RejectedSignatures),
		SealedBlobs:        slices.Clone(c.SealedBlobs),
	}
	for _, r := range c.RejectedCarriers {
		r.Carriers = slices.Clone(r.Carriers)
		out.RejectedCarriers = append(out.RejectedCarriers, r)
	}
	return out
}

// ParseSession reads a session document: an object with "messages" (and
// optional "id" and "model_config"), or a bare array of messages. Errors
// name the message index in play. It reads b once, validating as it goes
// (about as fast as the bytes can be walked); raw values are copies, so b
// may be reused afterwards.
func ParseSession(b []byte) (*Session, error) { return ParseSessionQuoted(b, nil) }

// ParseSessionQuoted is ParseSession that also keeps in q, when q is not
// nil, the JSON forms of the session's long reasoning strings, for the
// shaping of its requests (see [QuotedStrings]). The forms, and the
// session's raw values then, share b's bytes: b must not change while
// the session is in use.
func ParseSessionQuoted(b []byte, q *QuotedStrings) (*Session, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, fmt.Errorf("session: empty document")
	}
	s, err := parseSessionFast(b, q)
	if err != nil {
		q.reset()
		// encoding/json has checked the roles already.
		if s, err = unmarshalSession(b); err != nil {
			return nil, err
		}
		if err := checkRejected(s); err != nil {
			return nil, err
		}
		return s, nil
	}
	if err := checkParsed(s); err != nil {
		return nil, err
	}
	return s, nil
}

// checkParsed checks what the one-pass parser leaves to its caller: every
// message has a role, and the recorded rejections name carriers.
func checkParsed(s *Session) error {
	for i := range s.Messages {
		if s.Messages[i].Role == "" {
			return missingRole(i)
		}
	}
	return checkRejected(s)
}

// checkRejected checks that the recorded rejections name carriers.
func checkRejected(s *Session) error {
	for _, r := range s.Config.RejectedCarriers {
		for _, c := range r.Carriers {
			if _, err := ParseCarrier(string(c)); err != nil {
				return fmt.Errorf("session: model_config.rejected_carriers: %w", err)
			}
		}
	}
	return nil
}

// jsonErr adds the byte offset to a JSON syntax or type error.
func jsonErr(b []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case asErr(err, &se):
		return fmt.Errorf("invalid JSON at offset %d: %w", se.Offset, err)
	case asErr(err, &te):
		return fmt.Errorf("wrong JSON type at offset %d (%s): %w", te.Offset, te.Field, err)
	}
	return err
}
