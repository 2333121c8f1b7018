package realdata

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Dir is ../shared/realdata relative to the repository root, as seen from
// a dialect package's directory (engine/<dialect>), where its tests run.
const Dir = "../../../shared/realdata"

// Interaction is one interaction of a recorded cassette.
type Interaction struct {
	URI          string
	RequestBody  []byte // JSON
	Status       int
	ResponseBody []byte // JSON, SSE text or event-stream bytes
}

// LoadCassette reads a recorded cassette: bodies given as parsed_body
// (YAML maps) become JSON; body.string is taken as it is. It fails the
// test on an unreadable or malformed file.
func LoadCassette(t testing.TB, path string) []Interaction {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Interactions []struct {
			Request struct {
				URI        string `yaml:"uri"`
				Body       any    `yaml:"body"`
				ParsedBody any    `yaml:"parsed_body"`
			} `yaml:"request"`
			Response struct {
				Body struct {
					String any `yaml:"string"`
				} `yaml:"body"`
				ParsedBody any `yaml:"parsed_body"`
				Status     struct {
					Code int `yaml:"code"`
				} `yaml:"status"`
			} `yaml:"response"`
		} `yaml:"interactions"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []Interaction
	for _, it := range doc.Interactions {
		r := Interaction{URI: it.Request.URI, Status: it.Response.Status.Code}
		r.RequestBody = bodyOf(t, it.Request.ParsedBody, it.Request.Body)
		r.ResponseBody = bodyOf(t, it.Response.ParsedBody, it.Response.Body.String)
		out = append(out, r)
	}
	return out
}

// bodyOf is a parsed body as JSON, else a raw string or byte body as it is.
func bodyOf(t testing.TB, parsed, raw any) []byte {
	t.Helper()
	if parsed != nil {
		b, err := json.Marshal(parsed)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	switch v := raw.(type) {
	case string:
		return []byte(v)
	case []byte:
		return v
	}
	return nil
}

// Files lists the recorded files of one dialect directory under Dir. It
// skips the test when the directory is absent and fails it when the
// directory holds nothing.
func Files(t testing.TB, dialect string) []string {
	t.Helper()
	dir := filepath.Join(Dir, dialect)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("%s not present: %v", dir, err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no files (%v)", dir, err)
	}
	return files
}
