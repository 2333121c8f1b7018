package sim

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// redactTrigger is the prefix of Anthropic's documented test string that
// makes a model answer with redacted thinking.
const redactTrigger = "ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING"

// created is the fixed creation time of generated chat completions
// (2026-01-01T00:00:00Z), so answers are byte-stable.
const created = 1767225600

// turn is a generated assistant turn, before it is shaped for a dialect.
type turn struct {
	model string
	// digest is sha256 of the request body in hex; ids derive from it.
	digest string
	// reasoning is "Reasoning on: <first 60 chars of the user text>.
	// [memo:<8 hex>]".
	reasoning string
	// toolName and toolID are set when the turn is a tool call.
	toolName string
	toolID   string
	// args is the tool call's JSON arguments object, {} unless directed.
	args string
	// bare is true when the turn carries no reasoning at all (directed).
	bare bool
	// answer is the final text when the turn is not a tool call.
	answer string
	// redacted is true when the reasoning comes back sealed instead of
	// readable (the redaction trigger was in the user text).
	redacted bool
	usage    usage
}

// usage are token counts derived from lengths.
type usage struct {
	input, output, reasoning int
}

// compose generates the assistant turn for a request.
func (s *Simulator) compose(q *request, c conversation) *turn {
	sum := sha256.Sum256([]byte(c.userText))
	t := &turn{
		model:     q.model,
		digest:    q.digest,
		reasoning: "Reasoning on: " + firstRunes(c.userText, 60) + ". [memo:" + hex.EncodeToString(sum[:])[:8] + "]",
	}
	if c.hasTools && c.endsWithUser {
		t.toolName = c.toolName
		if t.toolName == "" {
			t.toolName = "tool"
		}
		t.toolID = "call_" + q.digest[:8]
		t.args = "{}"
	} else {
		memos := s.visibleMemos(q, c)
		if len(memos) == 0 {
			t.answer = "Answer. No earlier reasoning in context."
		} else {
			t.answer = "Answer. Earlier conclusions in context: " + strings.Join(memos, ", ") + "."
		}
	}
	t.redacted = s.p.Emits.Redacted || strings.Contains(c.userText, redactTrigger) && s.redacts()
	out := len(t.answer) + len(t.toolName) + 2
	t.usage = usage{
		input:     len(q.body)/4 + 1,
		reasoning: len(t.reasoning)/4 + 1,
	}
	t.usage.output = t.usage.reasoning + out/4 + 1
	return t
}

// redacts reports whether the profile can answer with sealed (redacted)
// reasoning.
func (s *Simulator) redacts() bool {
	switch s.p.APIMode {
	case modeAnthropic:
		return s.emits("redacted_thinking") || s.signsMentioning("redacted")
	case modeConverse:
		return s.emits("reasoningContent.redactedContent") || s.signsMentioning("redacted")
	}
	return false
}

// firstRunes returns the first n runes of s.
func firstRunes(s string, n int) string {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

// pieces splits s into up to n non-empty parts of roughly equal rune
// length, so streams deliver text carriers in several deltas.
func pieces(s string, n int) []string {
	total := utf8.RuneCountInString(s)
	if total == 0 {
		return nil
	}
	if total < n {
		n = total
	}
	out := make([]string, 0, n)
	rest := s
	for k := n; k > 0; k-- {
		size := utf8.RuneCountInString(rest) / k
		head := firstRunes(rest, size)
		out = append(out, head)
		rest = rest[len(head):]
	}
	return out
}
