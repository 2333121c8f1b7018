package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestIsCompact(t *testing.T) {
	for _, tc := range []struct {
		reason, s string
		want      bool
	}{
		{"compact object", `{"a":[1,true,null],"b":{"c":"d"}}`, true},
		{"spaces inside strings are content", `{"a":"x y\n\t z","b":"\" spaced \\"}`, true},
		{"a space after a colon", `{"a": 1}`, false},
		{"a newline between members", "{\"a\":1,\n\"b\":2}", false},
		{"a trailing newline", "[1]\n", false},
		{"an escaped quote does not end the string", `["\\\" ",1]`, true},
		{"an escaped backslash does end it", `["\\" ,1]`, false},
		{"three backslashes escape the quote", `["a\\\" ",1]`, true},
		{"four do not", `["a\\\\" ,1]`, false},
		{"an unterminated string is not compact text", `{"a":"x`, false},
		{"empty", ``, true},
	} {
		if got := IsCompact(tc.s); got != tc.want {
			t.Errorf("%s: IsCompact(%q) = %v, want %v", tc.reason, tc.s, got, tc.want)
		}
		if got := IsCompactValid([]byte(tc.s)); got != tc.want {
			t.Errorf("%s: IsCompactValid(%q) = %v, want %v", tc.reason, tc.s, got, tc.want)
		}
	}
}

// FuzzIsCompact checks IsCompact against encoding/json on valid JSON.
func FuzzIsCompact(f *testing.F) {
	for _, s := range []string{`{"a": "b c"}`, `[1,2]`, "{\"a\":\n1}", `"\u00e9 \" "`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, b); err != nil {
			t.Fatal(err)
		}
		want := bytes.Equal(buf.Bytes(), b)
		if IsCompact(b) != want {
			t.Fatalf("IsCompact(%q) = %v, compacting changes it: %v", b, !want, !want)
		}
		if IsCompactValid(b) != want {
			t.Fatalf("IsCompactValid(%q) = %v, compacting changes it: %v", b, !want, !want)
		}
	})
}

// FuzzCompactValue checks CompactValue against encoding/json: true just
// for one valid JSON value that compacting leaves as it is (false too for
// one nested deeper than Value follows, which Value refuses as well).
func FuzzCompactValue(f *testing.F) {
	for _, s := range []string{`{"a":"b c"}`, `{"a": "b"}`, `[1,2]`, `[1 ,2]`, "{\"a\":\n1}", `"\u00e9 \" "`, `{"a":[{},[],-0.5e+3,true,null]}`, `{"a":1}x`, `{"a":1,}`, ` 1`, `1 `, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := false
		if json.Valid(b) {
			var buf bytes.Buffer
			if err := json.Compact(&buf, b); err != nil {
				t.Fatal(err)
			}
			want = bytes.Equal(buf.Bytes(), b)
		}
		if got := CompactValue(b); got != want && (got || Value(b, 0) >= 0) {
			t.Fatalf("CompactValue(%q) = %v, want %v", b, got, want)
		}
	})
}
