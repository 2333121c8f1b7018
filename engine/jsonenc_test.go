package engine

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/replaycheck/replaycheck/engine/internal/jsonscan"
)

// TestAppendQuoted checks the escapes AppendQuoted writes, around and
// inside the 8-byte words it skips whole.
func TestAppendQuoted(t *testing.T) {
	for _, tc := range []struct {
		reason, in, want string
	}{
		{"an empty string", "", `""`},
		{"plain words are copied", "reasoning about it", `"reasoning about it"`},
		{"quote and backslash are escaped", `say "hi" \ bye`, `"say \"hi\" \\ bye"`},
		{"named control escapes", "a\nb\rc\td", `"a\nb\rc\td"`},
		{"other control bytes as \\u00XX", "\x00\x01\x1f", `"\u0000\u0001\u001f"`},
		{"no HTML escaping", "<a href='x'>&</a>", `"<a href='x'>&</a>"`},
		{"UTF-8 is kept", "déjà vu, 思考", `"déjà vu, 思考"`},
		{"invalid UTF-8 becomes U+FFFD", "ab\xffcdefghij", `"ab\ufffdcdefghij"`},
		{"line and paragraph separators are escaped", "a\u2028b\u2029c", `"a\u2028b\u2029c"`},
		{"an escape at the end of a long run", strings.Repeat("x", 16) + "\"", `"` + strings.Repeat("x", 16) + `\""`},
	} {
		if got := string(AppendQuoted(nil, tc.in)); got != tc.want {
			t.Errorf("%s: AppendQuoted(%q) = %s, want %s", tc.reason, tc.in, got, tc.want)
		}
	}
}

// FuzzAppendQuoted checks that the output is a JSON string that decodes
// to what encoding/json's encoding of the same input decodes to.
func FuzzAppendQuoted(f *testing.F) {
	f.Add("plain text that is long enough to skip words")
	f.Add("\"\\\n\x00\xff\u2028é")
	f.Fuzz(func(t *testing.T, s string) {
		out := AppendQuoted([]byte("prefix"), s)
		if !strings.HasPrefix(string(out), "prefix") {
			t.Fatalf("AppendQuoted(%q) lost dst: %s", s, out)
		}
		var got, want string
		if err := json.Unmarshal(out[len("prefix"):], &got); err != nil {
			t.Fatalf("AppendQuoted(%q) = %s: %v", s, out, err)
		}
		std, _ := json.Marshal(s)
		if err := json.Unmarshal(std, &want); err != nil || got != want {
			t.Fatalf("AppendQuoted(%q) decodes to %q; encoding/json's decodes to %q", s, got, want)
		}
	})
}

// FuzzAppendQuotedFast checks AppendQuoted's fast path byte for byte
// against the rune-decoding one, and the checks that choose it against
// the standard library's.
func FuzzAppendQuotedFast(f *testing.F) {
	for _, s := range []string{"naïve café — 検証 ✓ \"q\"\n\n" + strings.Repeat("ab", 9), "\xe2\x80\xa8", "\xe2\x80", "é\xe2\x80\xa9", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\x00\x7f\b\f/", "12345678é12345678\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := jsonscan.ValidUTF8(s), utf8.ValidString(s); got != want {
			t.Fatalf("ValidUTF8(%q) = %v, want %v", s, got, want)
		}
		if got, want := hasLineSeparator(s), strings.ContainsAny(s, "\u2028\u2029"); got != want {
			t.Fatalf("hasLineSeparator(%q) = %v, want %v", s, got, want)
		}
		want := string(appendQuotedAny([]byte("p"), s))
		if got := string(AppendQuoted([]byte("p"), s)); got != want {
			t.Fatalf("AppendQuoted(%q) = %s, want %s", s, got, want)
		}
	})
}
