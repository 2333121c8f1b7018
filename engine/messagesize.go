package engine

// storedSizeHint is about the length of m's storage JSON
// ([Message.MarshalJSON]), a little more for the escapes that strings of
// prose hold, so that the encoding is written into one allocation instead
// of growing through a dozen (a 30 KB message is otherwise copied about
// twice over as it grows). A short guess costs one more growth, never a
// wrong byte.
func (m *Message) storedSizeHint() int {
	n := 64 + len(m.Role) + len(m.Content) + len(m.Name) + len(m.ToolCallID) + len(m.ExtraContent) + len(m.Timestamp)
	for _, p := range [...]*string{m.ReasoningContent, m.Reasoning, m.ReasoningOpaque, m.ReasoningText} {
		if p != nil {
			n += 24 + quotedSizeHint(*p)
		}
	}
	for _, r := range m.ReasoningDetails {
		n += 1 + len(r)
	}
	for i := range m.ToolCalls {
		tc := &m.ToolCalls[i]
		n += 128 + len(tc.ID) + len(tc.Type) + len(tc.Function.Name) + quotedSizeHint(tc.Function.Arguments) +
			len(tc.Function.ThoughtSignature) + len(tc.ExtraContent) + len(tc.CallID) + len(tc.ResponseItemID)
	}
	if nt := m.Native; nt != nil {
		n += 48 + len(nt.Dialect)
		for _, b := range nt.Blocks {
			n += 1 + len(b)
		}
		if is := nt.Issuer; is != nil {
			n += 48 + len(is.Provider) + len(is.Host) + len(is.Model)
		}
	}
	for k, v := range m.Extra {
		n += 4 + len(k) + len(v)
	}
	return n
}

// quotedSizeHint is about the length of s quoted: s, its quotes, and one
// escape in 16 bytes.
func quotedSizeHint(s string) int { return 2 + len(s) + len(s)/16 }
