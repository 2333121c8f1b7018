package chat_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/chat"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
)

// gatewayRoute reads every carrier: each reasoning string is written
// twice (RC and R), from the one form kept.
var gatewayRoute = engine.Route{Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "m"}

// quotedSession is a session document with, per reasoning text as
// written, an assistant turn carrying it in reasoning_content, the tool's
// result, and a user turn carrying it in reasoning (passed through).
func quotedSession(texts ...string) []byte {
	var b strings.Builder
	b.WriteString(`{"messages":[{"role":"user","content":"go"}`)
	for i, text := range texts {
		fmt.Fprintf(&b, `,{"role":"assistant","content":null,"reasoning_content":"%s","tool_calls":[{"id":"c%d","type":"function","function":{"name":"f","arguments":"{}"}}]}`, text, i)
		fmt.Fprintf(&b, `,{"role":"tool","tool_call_id":"c%d","content":"r"}`, i)
		fmt.Fprintf(&b, `,{"role":"user","content":"q","reasoning":"%s"}`, text)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// shapeBoth shapes doc with and without the forms the parser keeps and
// fails unless the bodies are the same bytes; it returns the forms kept.
func shapeBoth(t testing.TB, doc []byte) (*engine.Session, *engine.QuotedStrings) {
	t.Helper()
	q := new(engine.QuotedStrings)
	sess, err := engine.ParseSessionQuoted(doc, q)
	if err != nil {
		t.Fatal(err)
	}
	checkSameShape(t, sess, q)
	return sess, q
}

func checkSameShape(t testing.TB, sess *engine.Session, q *engine.QuotedStrings) {
	t.Helper()
	d := enginetest.Table(t).Decide(gatewayRoute, 0)
	want, err := chat.Dialect{}.Shape(sess, d, engine.Request{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := chat.Dialect{}.Shape(sess, d, engine.Request{Quoted: q})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("shaped with the kept forms:\n%.400s\nescaped again:\n%.400s", got, want)
	}
}

// TestQuotedForms: a long reasoning string's form is kept only where it is
// what AppendQuoted writes, and shaping from the forms writes the bytes
// escaping writes: for strings decoded where they stand and for the very
// long ones decoded after the document is read, on every core.
func TestQuotedForms(t *testing.T) {
	for _, words := range []int{60, 1200} {
		long := strings.Repeat("word ", words)
		for _, tc := range []struct {
			reason string
			text   string
			kept   int
		}{
			{"plain text", long, 2},
			{"the escapes AppendQuoted writes", long + `line\nquote\" back\\ tab\t cr\r`, 2},
			{"non-ASCII", long + "café 検証", 2},
			{"a short string is escaped, not looked up", "short", 0},
			{`an escaped slash (AppendQuoted writes "/")`, long + `a\/b`, 0},
			{`\b (AppendQuoted writes \u0008)`, long + `\b`, 0},
			{`\f (AppendQuoted writes \u000c)`, long + `\f`, 0},
			{"a raw U+2028 (AppendQuoted escapes it)", long + "\u2028", 0},
			{`a \u escape (encoding/json reads the document)`, long + `\u00e9`, 0},
			{"invalid UTF-8 (encoding/json reads the document)", long + "\xff", 0},
		} {
			t.Run(fmt.Sprintf("%d bytes: %s", len(long), tc.reason), func(t *testing.T) {
				_, q := shapeBoth(t, quotedSession(tc.text, tc.text))
				if q.Len() != 2*tc.kept {
					t.Errorf("%d forms kept, want %d", q.Len(), 2*tc.kept)
				}
			})
		}
	}
}

// TestQuotedFormsFollowTheStrings: a form is the JSON of the very string
// parsed; a field set to another string since, even one that starts at
// the same byte, is escaped again.
func TestQuotedFormsFollowTheStrings(t *testing.T) {
	for _, n := range []int{80, 1200} {
		long := strings.Repeat("a\\nb ", n)
		sess, q := shapeBoth(t, quotedSession(long, long))
		if q.Len() != 4 {
			t.Fatalf("%d forms kept, want 4", q.Len())
		}
		first := *sess.Messages[1].ReasoningContent
		sess.Messages[1].ReasoningContent = engine.Str(first[:len(first)-1])
		sess.Messages[4].ReasoningContent = engine.Str("changed " + first)
		checkSameShape(t, sess, q)
	}
}

// FuzzQuotedForms: whatever a session's reasoning strings hold, shaping
// from the kept forms writes what escaping them again writes.
func FuzzQuotedForms(f *testing.F) {
	for _, s := range []string{`plain`, `a\nb\"c\\d`, `\/`, `\b\f`, "\u2028", `\u00e9`, "\xff", "é検"} {
		f.Add(strings.Repeat(s, 300))
		f.Add(strings.Repeat(s, 1500))
	}
	f.Fuzz(func(t *testing.T, text string) {
		q := new(engine.QuotedStrings)
		sess, err := engine.ParseSessionQuoted(quotedSession(text), q)
		if err != nil {
			return
		}
		checkSameShape(t, sess, q)
	})
}
