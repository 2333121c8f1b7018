package layout

import (
	"slices"
	"testing"

	"github.com/replaycheck/replaycheck/engine/internal/jsonscan"
)

// TestSameButValues checks which ends count as the validated one with
// other values.
func TestSameButValues(t *testing.T) {
	const end = `,"usage":{"prompt":34,"total":-102,"ratio":0.25,"big":1e+07,"id":"a1"},"n":[0,7]}`
	var r rest
	r.set([]byte(end))
	for _, tc := range []struct {
		reason, b string
		want      bool
	}{
		{"the same end", end, true},
		{"other counts", `,"usage":{"prompt":34,"total":-1536,"ratio":0.5,"big":2e+10,"id":"a1"},"n":[12,0]}`, true},
		{"a fraction may start with zero", `,"usage":{"prompt":34,"total":-102,"ratio":0.05,"big":1e+07,"id":"a1"},"n":[0,7]}`, true},
		{"an integer with a leading zero", `,"usage":{"prompt":034,"total":-102,"ratio":0.25,"big":1e+07,"id":"a1"},"n":[0,7]}`, false},
		{"a number that lost its digits", `,"usage":{"prompt":,"total":-102,"ratio":0.25,"big":1e+07,"id":"a1"},"n":[0,7]}`, false},
		{"another key", `,"usage":{"prompt":34,"totaL":-102,"ratio":0.25,"big":1e+07,"id":"a1"},"n":[0,7]}`, false},
		{"a longer end", end + " ", false},
		{"a shorter end", end[:len(end)-1], false},
	} {
		if got := r.sameButValues([]byte(tc.b)); got != tc.want {
			t.Errorf("%s: sameButValues(%s) = %v, want %v", tc.reason, tc.b, got, tc.want)
		}
	}
}

// FuzzSameButValues checks that an end found the same but for values as a
// valid one is valid too, with the same keys.
func FuzzSameButValues(f *testing.F) {
	f.Add(`,"a":[1,-2.50e-3,{"b":"c1"}]}`, `,"a":[10,-3.07e+4,{"b":"c1"}]}`)
	f.Add(`,"usage":{"n":0}}`, `,"usage":{"n":00}}`)
	f.Add(`,"obfuscation":"ab12","seq":3}`, `,"obfuscation":"x\\"y","seq":40}`)
	f.Fuzz(func(t *testing.T, valid, b string) {
		if !jsonscan.ObjectRest(valid, nil) {
			return
		}
		var r rest
		r.set([]byte(valid))
		if !r.sameButValues([]byte(b)) {
			return
		}
		if !jsonscan.ObjectRest(b, nil) {
			t.Fatalf("%q passed as %q with other values, but is not a valid end", b, valid)
		}
		if !slices.Equal(keysOf(b), keysOf(valid)) {
			t.Fatalf("%q passed as %q with other values, but its keys differ", b, valid)
		}
	})
}

// keysOf returns the object keys of a valid end: the JSON strings a colon
// follows.
func keysOf(s string) []string {
	var keys []string
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			n, _ := jsonscan.StringEnd(s[i+1:])
			if n < 0 {
				break
			}
			if isKey([]byte(s), i+n+2) {
				keys = append(keys, s[i+1:i+1+n])
			}
			i += n + 1
		}
	}
	return keys
}
