package store

import (
	"encoding/json"
	"hash/maphash"
	"slices"

	"github.com/replaycheck/replaycheck/engine"
)

// A fingerprinter hashes messages field by field, without encoding them:
// two messages with equal fields have equal storage JSON, so a message
// whose fingerprint matches the one remembered for a stored message is
// that stored message (up to a 2⁻⁶⁴ collision of a seeded hash). Each
// value is hashed with a tag of its field and its length, so that bytes
// cannot move between fields unseen; an absent value (nil pointer, nil
// slice) hashes differently from an empty one. Messages that differ in
// fields but not in JSON only cost a comparison of their storage JSON.
// TestFingerprintSeesEveryField fails when a field of [engine.Message]
// is left out.
type fingerprinter struct {
	h maphash.Hash
}

// message returns the fingerprint of m.
func (f *fingerprinter) message(m *engine.Message) uint64 {
	f.h.Reset()
	f.str('r', m.Role)
	f.raw('c', m.Content)
	f.str('n', m.Name)
	f.str('i', m.ToolCallID)
	f.count('T', len(m.ToolCalls))
	for i := range m.ToolCalls {
		tc := &m.ToolCalls[i]
		f.str('a', tc.ID)
		f.str('b', tc.Type)
		f.str('d', tc.Function.Name)
		f.str('e', tc.Function.Arguments)
		f.str('f', tc.Function.ThoughtSignature)
		f.raw('g', tc.ExtraContent)
		f.str('h', tc.CallID)
		f.str('j', tc.ResponseItemID)
	}
	f.opt('R', m.ReasoningContent)
	f.opt('S', m.Reasoning)
	f.raws('D', m.ReasoningDetails)
	f.raw('x', m.ExtraContent)
	f.opt('O', m.ReasoningOpaque)
	f.opt('P', m.ReasoningText)
	if nt := m.Native; nt == nil {
		f.h.WriteByte('-')
	} else {
		f.str('N', string(nt.Dialect))
		f.raws('B', nt.Blocks)
		if is := nt.Issuer; is == nil {
			f.h.WriteByte('-')
		} else {
			f.str('p', is.Provider)
			f.str('q', is.Host)
			f.str('s', is.Model)
		}
	}
	f.str('t', m.Timestamp)
	if m.Extra == nil {
		f.h.WriteByte('-')
	} else {
		keys := make([]string, 0, len(m.Extra))
		for k := range m.Extra {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		f.count('X', len(keys))
		for _, k := range keys {
			f.str('k', k)
			f.raw('v', m.Extra[k])
		}
	}
	return f.h.Sum64()
}

// count writes a tag and a number.
func (f *fingerprinter) count(tag byte, n int) {
	var b [9]byte
	b[0] = tag
	for i := range 8 {
		b[1+i] = byte(uint64(n) >> (8 * i))
	}
	f.h.Write(b[:])
}

func (f *fingerprinter) str(tag byte, s string) {
	f.count(tag, len(s))
	f.h.WriteString(s)
}

// opt writes a pointer field: absent, or its string.
func (f *fingerprinter) opt(tag byte, s *string) {
	if s == nil {
		f.h.WriteByte('-')
		return
	}
	f.str(tag, *s)
}

// raw writes a raw JSON value: absent (nil), or its bytes.
func (f *fingerprinter) raw(tag byte, v json.RawMessage) {
	if v == nil {
		f.h.WriteByte('-')
		return
	}
	f.count(tag, len(v))
	f.h.Write(v)
}

func (f *fingerprinter) raws(tag byte, vs []json.RawMessage) {
	if vs == nil {
		f.h.WriteByte('-')
		return
	}
	f.count(tag, len(vs))
	for _, v := range vs {
		f.raw(tag, v)
	}
}
