package realdata

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLoadCassette reads a cassette written here: a parsed_body becomes
// JSON, a body.string is kept as it is, and the status and URI carry over.
func TestLoadCassette(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	doc := `interactions:
- request:
    uri: https://example.test/v1/messages
    parsed_body:
      model: m
      stream: true
  response:
    body:
      string: "data: {}\n\n"
    status:
      code: 200
- request:
    uri: https://example.test/v1/other
    body: '{"a":1}'
  response:
    parsed_body:
      error: bad
    status:
      code: 400
`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	got := LoadCassette(t, path)
	want := []Interaction{
		{URI: "https://example.test/v1/messages", RequestBody: []byte(`{"model":"m","stream":true}`), Status: 200, ResponseBody: []byte("data: {}\n\n")},
		{URI: "https://example.test/v1/other", RequestBody: []byte(`{"a":1}`), Status: 400, ResponseBody: []byte(`{"error":"bad"}`)},
	}
	if len(got) != len(want) {
		t.Fatalf("%d interactions, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.URI != w.URI || g.Status != w.Status || string(g.RequestBody) != string(w.RequestBody) || string(g.ResponseBody) != string(w.ResponseBody) {
			t.Errorf("interaction %d: got %q %d %s %q, want %q %d %s %q", i, g.URI, g.Status, g.RequestBody, g.ResponseBody, w.URI, w.Status, w.RequestBody, w.ResponseBody)
		}
	}
}

// TestBodyOf covers each body form a cassette may hold.
func TestBodyOf(t *testing.T) {
	for _, tc := range []struct {
		reason      string
		parsed, raw any
		want        string
	}{
		{"a parsed body wins and becomes JSON", map[string]any{"k": "v"}, "ignored", `{"k":"v"}`},
		{"a string body is taken as it is", nil, "event: x\n", "event: x\n"},
		{"a byte body is taken as it is", nil, []byte{0, 1, 2}, "\x00\x01\x02"},
		{"no body is nil", nil, nil, ""},
	} {
		if got := string(bodyOf(t, tc.parsed, tc.raw)); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.reason, got, tc.want)
		}
	}
}

// TestFilesSkipsWhenAbsent checks that a dialect without recordings skips
// the test rather than failing it.
func TestFilesSkipsWhenAbsent(t *testing.T) {
	var skipped bool
	t.Run("absent", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Files(t, "no-such-dialect")
		t.Error("Files returned for an absent directory")
	})
	if !skipped {
		t.Error("an absent dialect directory did not skip the test")
	}
}
