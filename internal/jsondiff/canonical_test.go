package jsondiff

import (
	"errors"
	"strings"
	"testing"
)

func TestCanonical(t *testing.T) {
	tests := []struct {
		reason string
		in     string
		want   string
	}{
		{"keys are sorted by byte order", `{"b":1,"a":2,"B":3}`, `{"B":3,"a":2,"b":1}`},
		{"whitespace between tokens is dropped", " {\n\t\"a\" : [ 1 , 2 ] ,\r\n \"b\" : { } } \n", `{"a":[1,2],"b":{}}`},
		{"nested objects are sorted at every level", `{"z":{"y":1,"x":[{"q":1,"p":2}]},"a":null}`, `{"a":null,"z":{"x":[{"p":2,"q":1}],"y":1}}`},
		{"array order is kept", `[3,1,2]`, `[3,1,2]`},
		{"numbers keep their literal text", `[1.0,1,1e3,1E3,-0,0.10,12345678901234567890123]`, `[1.0,1,1e3,1E3,-0,0.10,12345678901234567890123]`},
		{"literals are kept", `[true,false,null]`, `[true,false,null]`},
		{"a scalar document is fine", ` "x" `, `"x"`},
		{"solidus escape is written plainly", `"a\/b"`, `"a/b"`},
		{"\\u escapes of printable characters become the characters", `"\u0041\u00e9\u4e16"`, `"Aé世"`},
		{"short escapes are kept short", `"\"\\\b\f\n\r\t"`, `"\"\\\b\f\n\r\t"`},
		{"\\u escapes of short-escape characters become short", `"\u0022\u005c\u0008\u000a"`, `"\"\\\b\n"`},
		{"other control characters use lower-case \\u00xx", `"\u001F\u0000"`, `"\u001f\u0000"`},
		{"no HTML escaping", `"<a href=\u0026>"`, `"<a href=&>"`},
		{"U+2028 is written literally", `"\u2028"`, "\"\u2028\""},
		{"surrogate pairs become one UTF-8 character", `"\ud83d\ude00"`, `"😀"`},
		{"a lone high surrogate stays an escape", `"\uD800x"`, `"\ud800x"`},
		{"a lone low surrogate stays an escape", `"\uDC00"`, `"\udc00"`},
		{"high then non-low surrogate stays two escapes", `"\ud800\u0041"`, `"\ud800A"`},
		{"opaque signatures are untouched", `{"signature":"EpEgCo4gAb4+9vvWwdN+Nk/Q=="}`, `{"signature":"EpEgCo4gAb4+9vvWwdN+Nk/Q=="}`},
		{"escaped keys are decoded before sorting", `{"b":1,"\u0061":2}`, `{"a":2,"b":1}`},
		{"escaped keys are written canonically", `{"a\u000ab":1,"\"":2}`, `{"\"":2,"a\nb":1}`},
		{"empty key sorts first", `{"a":1,"":2}`, `{"":2,"a":1}`},
		{"multi-byte keys sort by UTF-8 bytes", `{"é":1,"z":2,"世":3}`, `{"z":2,"é":1,"世":3}`},
		{"empty containers", `{"a":[],"b":{}}`, `{"a":[],"b":{}}`},
	}
	for _, tt := range tests {
		got, err := Canonical([]byte(tt.in))
		if err != nil {
			t.Errorf("%s: Canonical(%q) error: %v", tt.reason, tt.in, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("%s: Canonical(%q)\n got %s\nwant %s", tt.reason, tt.in, got, tt.want)
		}
		again, err := Canonical(got)
		if err != nil || string(again) != string(got) {
			t.Errorf("%s: Canonical is not idempotent on %q: %q, %v", tt.reason, got, again, err)
		}
	}
}

func TestCanonicalErrors(t *testing.T) {
	tests := []struct {
		reason string
		in     string
		want   string // the whole error message
	}{
		{"empty input", ``, `jsondiff: invalid JSON at offset 0: unexpected end of input`},
		{"only whitespace", "  \n", `jsondiff: invalid JSON at offset 3: unexpected end of input`},
		{"truncated object", `{"a":1`, `jsondiff: invalid JSON at offset 6: unexpected end of input in object`},
		{"truncated string", `{"a":"xyz`, `jsondiff: invalid JSON at offset 9: unexpected end of input in string`},
		{"trailing comma in array", `[1,2,]`, `jsondiff: invalid JSON at offset 5: unexpected character ']' looking for a value`},
		{"trailing comma in object", `{"a":1,}`, `jsondiff: invalid JSON at offset 7: unexpected character '}' looking for an object key`},
		{"single quotes", `{'a':1}`, `jsondiff: invalid JSON at offset 1: unexpected character '\'' looking for an object key`},
		{"missing colon", `{"a" 1}`, `jsondiff: invalid JSON at offset 5: unexpected character '1' after object key`},
		{"two top-level values", `{} {}`, `jsondiff: invalid JSON at offset 3: unexpected character '{' after the top-level value`},
		{"leading zero", `01`, `jsondiff: invalid JSON at offset 1: unexpected character '1' after the top-level value`},
		{"bare minus", `-`, `jsondiff: invalid JSON at offset 1: unexpected end of input in number, want a digit in the integer part`},
		{"dot without fraction", `1.e5`, `jsondiff: invalid JSON at offset 2: unexpected character 'e' in number, want a digit in the fraction`},
		{"exponent without digits", `[1e+]`, `jsondiff: invalid JSON at offset 4: unexpected character ']' in number, want a digit in the exponent`},
		{"plus sign", `+1`, `jsondiff: invalid JSON at offset 0: unexpected character '+' looking for a value`},
		{"NaN", `NaN`, `jsondiff: invalid JSON at offset 0: unexpected character 'N' looking for a value`},
		{"misspelled literal", `[tru]`, `jsondiff: invalid JSON at offset 4: unexpected character ']' in literal true`},
		{"truncated literal", `nul`, `jsondiff: invalid JSON at offset 3: unexpected end of input in literal null`},
		{"raw newline in string", "\"a\nb\"", `jsondiff: invalid JSON at offset 2: control character 0x0a in string (escape it)`},
		{"invalid escape", `"\x41"`, `jsondiff: invalid JSON at offset 2: invalid escape \x`},
		{"short \\u escape", `"\u12"`, `jsondiff: invalid JSON at offset 5: unexpected character '"' in \u escape, want a hex digit`},
		{"invalid UTF-8", "\"ok\xff\"", `jsondiff: invalid JSON at offset 3: invalid UTF-8 byte 0xff in string`},
		{"encoded surrogate in raw UTF-8", "\"\xed\xa0\x80\"", `jsondiff: invalid JSON at offset 1: invalid UTF-8 byte 0xed in string`},
		{"byte order mark", "\xef\xbb\xbf{}", `jsondiff: invalid JSON at offset 0: unexpected byte 0xef looking for a value`},
		{"duplicate key", `{"a":1,"b":2,"a":3}`, `jsondiff: invalid JSON at offset 13: duplicate object key "a"`},
		{"duplicate key spelled with an escape", `{"a":1,"\u0061":3}`, `jsondiff: invalid JSON at offset 7: duplicate object key "a"`},
		{"too deep", strings.Repeat("[", maxDepth+1), `jsondiff: invalid JSON at offset 10000: nesting deeper than 10000 levels`},
	}
	for _, tt := range tests {
		got, err := Canonical([]byte(tt.in))
		if err == nil {
			t.Errorf("%s: Canonical(%q) = %q, want error %q", tt.reason, tt.in, got, tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("%s: Canonical(%q) error\n got %s\nwant %s", tt.reason, tt.in, err, tt.want)
		}
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: error %T is not a *SyntaxError", tt.reason, err)
		}
	}
}

func TestCanonicalDeepButAllowed(t *testing.T) {
	in := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	got, err := Canonical([]byte(in))
	if err != nil || string(got) != in {
		t.Fatalf("nesting of exactly %d levels: got %d bytes, err %v", maxDepth, len(got), err)
	}
}

func TestEqual(t *testing.T) {
	tests := []struct {
		reason string
		a, b   string
		want   bool
	}{
		{"key order does not matter", `{"a":1,"b":[1,2]}`, `{"b":[1,2],"a":1}`, true},
		{"whitespace does not matter", `{"a" : 1}`, "{\n\"a\":1\n}", true},
		{"escaping does not matter", `"\u0041\/"`, `"A/"`, true},
		{"1.0 and 1 differ", `{"t":1.0}`, `{"t":1}`, false},
		{"large integers are compared exactly", `12345678901234567890`, `12345678901234567891`, false},
		{"a signature differing in one byte differs", `{"sig":"abc+/="}`, `{"sig":"abc+/-"}`, false},
		{"array order matters", `[1,2]`, `[2,1]`, false},
		{"null is not absent", `{"a":null}`, `{}`, false},
		{"false is not null", `false`, `null`, false},
		{"empty object is not empty array", `{}`, `[]`, false},
	}
	for _, tt := range tests {
		got, err := Equal([]byte(tt.a), []byte(tt.b))
		if err != nil {
			t.Errorf("%s: Equal error: %v", tt.reason, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s: Equal(%s, %s) = %v, want %v", tt.reason, tt.a, tt.b, got, tt.want)
		}
	}
}

func TestEqualErrorsNameTheDocument(t *testing.T) {
	tests := []struct {
		reason string
		a, b   string
		want   string
	}{
		{"bad want", `{`, `{}`, `jsondiff: want: invalid JSON at offset 1: unexpected end of input in object`},
		{"bad got", `{}`, `[1,]`, `jsondiff: got: invalid JSON at offset 3: unexpected character ']' looking for a value`},
	}
	for _, tt := range tests {
		_, err := Equal([]byte(tt.a), []byte(tt.b))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: Equal error = %v, want %s", tt.reason, err, tt.want)
		}
	}
}
