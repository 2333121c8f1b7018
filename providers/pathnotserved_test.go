package providers

import (
	"strings"
	"testing"
)

// TestPathNotServedField: a path_not_served condition names a URL path;
// anything else is refused with its position.
func TestPathNotServedField(t *testing.T) {
	for _, tc := range []struct{ reason, field, want string }{
		{"a URL path", "/v1/messages", ""},
		{"no field", "", "needs a field that is a URL path"},
		{"a relative path", "v1/messages", "needs a field that is a URL path"},
		{"a query", "/v1/messages?beta=true", "needs a field that is a URL path"},
	} {
		text := edit(t, "      kind: tool_turn_field_missing\n      field: reasoning_content\n      blank_is_missing: true\n",
			"      kind: path_not_served\n      field: \""+tc.field+"\"\n")
		_, err := Parse(negFile, []byte(text))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.reason, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), negFile+":")):
			t.Errorf("%s: error %v, want one naming %s and containing %q", tc.reason, err, negFile, tc.want)
		}
	}
}
