package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// textLimit is how many characters of readable text session show prints.
const textLimit = 60

// opaqueKeys hold signed or encrypted bytes, shown by length and digest.
var opaqueKeys = map[string]bool{
	"signature": true, "data": true, "encrypted_content": true, "thoughtSignature": true,
	"thought_signature": true, "reasoning_opaque": true, "redactedContent": true,
}

// readableKeys hold reasoning or answer text, shown trimmed.
var readableKeys = map[string]bool{
	"text": true, "thinking": true, "summary": true, "reasoning_text": true,
	"reasoning_content": true, "reasoning": true,
}

// skippedKeys hold tool inputs and results, never carriers.
var skippedKeys = map[string]bool{"input": true, "args": true, "arguments": true, "content": true, "toolResult": true, "functionResponse": true}

// readable renders text collapsed to one line and trimmed to textLimit
// characters with "…".
func readable(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > textLimit {
		r := []rune(s)
		s = string(r[:textLimit]) + "…"
	}
	return strconv.Quote(s)
}

// opaque renders an opaque carrier by length and the first 12 hex digits
// of its SHA-256.
func opaque(s string) string {
	sum := sha256.Sum256([]byte(s))
	return fmt.Sprintf("len=%d sha256=%s", len(s), hex.EncodeToString(sum[:])[:12])
}

// carrierLeaves lists the carrier strings inside a JSON value in document
// order, as "path rendering".
func carrierLeaves(v gjson.Result, prefix string) []string {
	var out []string
	v.ForEach(func(k, val gjson.Result) bool {
		key := k.String()
		path := key
		if prefix != "" {
			path = prefix + "." + key
		}
		switch {
		case skippedKeys[key]:
		case val.IsObject() || val.IsArray():
			out = append(out, carrierLeaves(val, path)...)
		case val.Type != gjson.String:
		case opaqueKeys[key]:
			out = append(out, path+" "+opaque(val.Str))
		case readableKeys[key]:
			out = append(out, path+" "+readable(val.Str))
		}
		return true
	})
	return out
}

// itemLabel names a reasoning_details item or native block: its type, or
// for untyped blocks (Gemini parts, Converse blocks) its first key.
func itemLabel(item gjson.Result) string {
	if t := item.Get("type"); t.Type == gjson.String {
		if engine.IsPrivateRecord(json.RawMessage(item.Raw)) {
			return t.Str + " (private record)"
		}
		return t.Str
	}
	if item.Get("thought").Bool() {
		return "thought"
	}
	label := "block"
	item.ForEach(func(k, _ gjson.Result) bool {
		label = k.String()
		return false
	})
	return label
}

func contentSummary(c json.RawMessage) string {
	v := gjson.ParseBytes(c)
	switch {
	case len(c) == 0:
		return ""
	case v.Type == gjson.String:
		return readable(v.Str)
	case v.Type == gjson.Null:
		return "null"
	case v.IsArray():
		n := len(v.Array())
		if n == 1 {
			return "[1 part]"
		}
		return fmt.Sprintf("[%d parts]", n)
	}
	return "(" + strconv.Itoa(len(c)) + " bytes)"
}

// writeSession prints a session turn by turn, with the carriers each
// message holds, then its model config.
func writeSession(w io.Writer, s *engine.Session) error {
	turns := 0
	for _, m := range s.Messages {
		if m.Role == "user" {
			turns++
		}
	}
	fmt.Fprintf(w, "session %s: %d messages, %d turns\n", s.ID, len(s.Messages), turns)
	writeConfig(w, s.Config)
	turn := 0
	for i, m := range s.Messages {
		switch {
		case i == 0 && m.Role != "user":
			fmt.Fprint(w, "\npreamble\n")
		case m.Role == "user":
			turn++
			fmt.Fprintf(w, "\nturn %d\n", turn)
		}
		writeMessage(w, i, m)
	}
	return nil
}

func writeConfig(w io.Writer, c engine.ModelConfig) {
	fmt.Fprint(w, "\nmodel config\n")
	if len(c.RejectedCarriers) == 0 {
		fmt.Fprint(w, "  rejected carriers: none\n")
	} else {
		fmt.Fprint(w, "  rejected carriers:\n")
		for _, r := range c.RejectedCarriers {
			fmt.Fprintf(w, "    %s %s %s: %s\n", r.Provider, r.Host, r.Model, engine.NewCarrierSet(r.Carriers...))
		}
	}
	fmt.Fprintf(w, "  rejected signatures: %d\n", len(c.RejectedSignatures))
	fmt.Fprintf(w, "  sealed blobs: %d\n", len(c.SealedBlobs))
}

func writeMessage(w io.Writer, i int, m engine.Message) {
	head := fmt.Sprintf("  [%d] %s", i, m.Role)
	if m.Name != "" {
		head += " name=" + m.Name
	}
	if m.ToolCallID != "" {
		head += " tool_call_id=" + m.ToolCallID
	}
	if c := contentSummary(m.Content); c != "" {
		head += " content " + c
	}
	fmt.Fprintln(w, head)
	line := func(format string, args ...any) { fmt.Fprintf(w, "      "+format+"\n", args...) }
	if m.ReasoningContent != nil {
		line("reasoning_content %s", readable(*m.ReasoningContent))
	}
	if m.Reasoning != nil {
		line("reasoning %s", readable(*m.Reasoning))
	}
	for j, item := range m.ReasoningDetails {
		v := gjson.ParseBytes(item)
		line("reasoning_details[%d] %s%s", j, itemLabel(v), leaves(v))
	}
	if len(m.ExtraContent) > 0 {
		line("extra_content%s", leaves(gjson.ParseBytes(m.ExtraContent)))
	}
	if m.ReasoningOpaque != nil {
		line("reasoning_opaque %s", opaque(*m.ReasoningOpaque))
	}
	if m.ReasoningText != nil {
		line("reasoning_text %s", readable(*m.ReasoningText))
	}
	for j, tc := range m.ToolCalls {
		s := fmt.Sprintf("tool_calls[%d] %s %s", j, tc.ID, tc.Function.Name)
		if tc.Function.ThoughtSignature != "" {
			s += "  function.thought_signature " + opaque(tc.Function.ThoughtSignature)
		}
		if len(tc.ExtraContent) > 0 {
			for _, l := range carrierLeaves(gjson.ParseBytes(tc.ExtraContent), "extra_content") {
				s += "  " + l
			}
		}
		line("%s", s)
	}
	if m.Native != nil {
		for j, b := range m.Native.Blocks {
			v := gjson.ParseBytes(b)
			line("native %s [%d] %s%s", m.Native.Dialect, j, itemLabel(v), leaves(v))
		}
	}
	if len(m.Extra) > 0 {
		keys := make([]string, 0, len(m.Extra))
		for k := range m.Extra {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		line("extra keys: %s", strings.Join(keys, ", "))
	}
}

// leaves renders the carrier leaves of an item after its label.
func leaves(v gjson.Result) string {
	var b strings.Builder
	for _, l := range carrierLeaves(v, "") {
		b.WriteString("  ")
		b.WriteString(l)
	}
	return b.String()
}
