package realdata

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLoadCassette reads a cassette written here: a parsed_body becomes
// JSON, a body.string is kept as it is, a !!binary body is decoded, and the
// status and URI carry over.
func TestLoadCassette(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	doc := `interactions:
- request:
    method: POST
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
    method: POST
    uri: https://example.test/v1/other
    body: '{"a":1}'
  response:
    parsed_body:
      error: bad
    status:
      code: 400
- request:
    method: POST
    uri: https://example.test/v1/bin
    body: null
  response:
    body:
      string: !!binary AAEC
    status:
      code: 200
`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	got := LoadCassette(t, path)
	want := []Interaction{
		{URI: "https://example.test/v1/messages", RequestBody: []byte(`{"model":"m","stream":true}`), Status: 200, ResponseBody: []byte("data: {}\n\n")},
		{URI: "https://example.test/v1/other", RequestBody: []byte(`{"a":1}`), Status: 400, ResponseBody: []byte(`{"error":"bad"}`)},
		{URI: "https://example.test/v1/bin", Status: 200, ResponseBody: []byte{0, 1, 2}},
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

// TestDirIsBesideTheRepository finds ../shared/realdata from the
// repository root, wherever below it the test runs.
func TestDirIsBesideTheRepository(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if d, want := Dir(), filepath.Join(filepath.Dir(root), "shared", "realdata"); d != want {
		t.Errorf("Dir() = %q, want %q", d, want)
	}
}

// TestFilesSkipsWhenAbsent checks that a directory without recordings
// skips the test rather than failing it.
func TestFilesSkipsWhenAbsent(t *testing.T) {
	var skipped bool
	t.Run("absent", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Files(t, "no-such-dialect")
		t.Error("Files returned for an absent directory")
	})
	if !skipped {
		t.Error("an absent directory did not skip the test")
	}
}
