package engine

import "testing"

func TestNotJSON(t *testing.T) {
	tests := []struct {
		body, want, reason string
	}{
		{`[1,x]`, `body is not valid JSON at offset 3: invalid character 'x' looking for beginning of value`, "the offset is the offending byte's"},
		{`{"a":1,}`, `body is not valid JSON at offset 7: invalid character '}' looking for beginning of object key string`, "a syntax error names its byte offset"},
		{`{"a":`, `body is not valid JSON at offset 5: unexpected end of JSON input`, "a cut body names where it ends"},
		{"", `body is not valid JSON at offset 0: unexpected end of JSON input`, "an empty body is not JSON"},
		{`{"a":1}`, `body is not valid JSON`, "a body encoding/json accepts still gets the caller's verdict, without an invented offset"},
	}
	for _, tt := range tests {
		if got := NotJSON("body", []byte(tt.body)).Error(); got != tt.want {
			t.Errorf("%s:\n got  %s\n want %s", tt.reason, got, tt.want)
		}
	}
}
