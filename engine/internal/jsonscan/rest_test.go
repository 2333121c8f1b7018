package jsonscan

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

var readsChoices = []string{"choices", "error"}

// TestObjectRest checks what may follow a member of an object.
func TestObjectRest(t *testing.T) {
	for _, tc := range []struct {
		reason, rest string
		want         bool
	}{
		{"the object closes at once", "}", true},
		{"whitespace around the close", " \r\n}\t ", true},
		{"members of every kind", `,"a":"x","b":-1.5e+3,"c":[true,false,null,{}],"d":{"e":[]}}`, true},
		{"whitespace everywhere JSON allows it", ` , "a" : [ 1 , { "b" : 2 } ] }`, true},
		{"a read key is refused", `,"choices":[]}`, false},
		{"a read key deeper down is fine", `,"usage":{"choices":1}}`, true},
		{"an escaped key is refused", `,"ch\u006fices":[]}`, false},
		{"nothing after the close", "} x", false},
		{"the object never closes", `,"a":1`, false},
		{"empty input", "", false},
		{"a missing colon", `,"a" 1}`, false},
		{"a trailing comma", `,"a":1,}`, false},
		{"a leading zero", `,"a":01}`, false},
		{"a bare minus", `,"a":-}`, false},
		{"a dot without digits", `,"a":1.}`, false},
		{"an exponent without digits", `,"a":1e}`, false},
		{"a truncated literal", `,"a":tru}`, false},
		{"a raw control byte in a string", ",\"a\":\"x\ny\"}", false},
		{"an unclosed array", `,"a":[1,2}`, false},
		{"a mismatched close", `,"a":[1}]}`, false},
		{"too deep to follow", `,"a":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "}", false},
	} {
		if got := ObjectRest(tc.rest, readsChoices); got != tc.want {
			t.Errorf("%s: ObjectRest(%q) = %v, want %v", tc.reason, tc.rest, got, tc.want)
		}
		if got := ObjectRest([]byte(tc.rest), readsChoices); got != tc.want {
			t.Errorf("%s: ObjectRest of bytes %q = %v, want %v", tc.reason, tc.rest, got, tc.want)
		}
	}
}

// FuzzObjectRest checks ObjectRest against gjson.Valid, the validation of
// the general paths, on an object whose first member it follows: it never
// accepts more, and refuses more only where a key may be escaped.
func FuzzObjectRest(f *testing.F) {
	for _, s := range []string{"}", `,"a":[1,{"b":"c"}]}`, `,"a":-0.5E-7 }`, `,"a":"\u00e9"}`, `,"a":nul}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rest string) {
		if strings.Count(rest, "[")+strings.Count(rest, "{") >= maxDepth {
			return // beyond the depth ObjectRest follows
		}
		got, want := ObjectRest(rest, nil), gjson.Valid(`{"x":[]`+rest)
		if got != want && (got || !strings.Contains(rest, `\`)) {
			t.Fatalf("ObjectRest(%q) = %v; gjson.Valid of the object says %v", rest, got, want)
		}
	})
}
