package jsonscan

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// TestStringEnd checks the closing quote and the escape flag on string
// and byte input alike.
func TestStringEnd(t *testing.T) {
	for _, tc := range []struct {
		reason  string
		body    string
		end     int
		escaped bool
	}{
		{"a plain body ends at its quote", `abc"rest`, 3, false},
		{"an empty body ends at once", `"`, 0, false},
		{"an escaped quote does not end the body", `a\"b"`, 4, true},
		{"every simple escape is accepted", `\\\/\b\f\n\r\t"`, 14, true},
		{"a unicode escape is accepted", `\u00e9x"`, 7, true},
		{"upper-case hex is accepted", `\u00E9"`, 6, true},
		{"bytes above ASCII are plain", "é\"", 2, false},
		{"no closing quote", `abc`, -1, false},
		{"a raw control character", "a\nb\"", -1, false},
		{"an unknown escape", `\x"`, -1, false},
		{"a short unicode escape", `\u12"`, -1, false},
		{"a non-hex unicode escape", `\u12g4"`, -1, false},
		{"a trailing backslash", `ab\`, -1, false},
	} {
		end, esc := StringEnd(tc.body)
		if end != tc.end || esc != tc.escaped {
			t.Errorf("%s: StringEnd(%q) = %d, %v; want %d, %v", tc.reason, tc.body, end, esc, tc.end, tc.escaped)
		}
		bend, besc := StringEnd([]byte(tc.body))
		if bend != end || besc != esc {
			t.Errorf("%s: bytes give %d, %v; string gives %d, %v", tc.reason, bend, besc, end, esc)
		}
	}
}

// FuzzStringEnd checks StringEnd against encoding/json: where it finds an
// end, the quoted prefix is a valid JSON string (taken as it is when it
// has no escapes and is valid UTF-8), and a valid JSON string
// followed by anything is found to end at its closing quote.
func FuzzStringEnd(f *testing.F) {
	for _, s := range []string{`abc"`, `a\"b"x`, `\u00e9"`, "a\x01\"", `\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		end, escaped := StringEnd(s)
		if end >= 0 {
			var v string
			if err := json.Unmarshal([]byte(`"`+s[:end+1]), &v); err != nil {
				t.Fatalf("StringEnd(%q) = %d, but %q is not a JSON string: %v", s, end, `"`+s[:end+1], err)
			}
			if !escaped && utf8.ValidString(s[:end]) && v != s[:end] {
				t.Fatalf("StringEnd(%q) reports no escapes, yet it decodes to %q", s, v)
			}
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Skip()
		}
		body := string(b[1:]) + "tail"
		if got, _ := StringEnd(body); got != len(b)-2 {
			t.Fatalf("StringEnd(%q) = %d, want %d", body, got, len(b)-2)
		}
	})
}
