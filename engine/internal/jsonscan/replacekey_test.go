package jsonscan

import "testing"

// TestReplaceKey checks that only the named key's value changes.
func TestReplaceKey(t *testing.T) {
	for _, tc := range []struct {
		reason, body, key, value, want string
	}{
		{"the key's value is replaced in place", `{"a":1,"messages":[1],"z":true}`, "messages", `[2,3]`, `{"a":1,"messages":[2,3],"z":true}`},
		{"other values keep their raw text", `{"a": 1.50 ,"messages":null}`, "messages", `[]`, `{"a":1.50,"messages":[]}`},
		{"a missing key is not added", `{"a":1}`, "messages", `[]`, `{"a":1}`},
		{"an escaped key matches by its value", `{"mess\u0061ges":0}`, "messages", `1`, `{"mess\u0061ges":1}`},
		{"an empty object stays empty", `{}`, "messages", `1`, `{}`},
	} {
		if got := string(ReplaceKey([]byte(tc.body), tc.key, []byte(tc.value))); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.reason, got, tc.want)
		}
	}
}
