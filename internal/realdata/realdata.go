package realdata

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/replaycheck/replaycheck/importer"
)

// Dir returns ../shared/realdata relative to the repository root (the
// directory holding go.mod, found from the test's working directory), or
// "" when there is no repository root above it.
func Dir() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "realdata")
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// Interaction is one interaction of a recorded cassette.
type Interaction struct {
	URI          string
	RequestBody  []byte // JSON
	Status       int
	ResponseBody []byte // JSON, SSE text or event-stream bytes
}

// LoadCassette reads a recorded cassette with the importer (every format
// `replaycheck import` reads): bodies given as parsed_body become JSON,
// body.string is taken as it is, !!binary and gzip bodies are decoded. It
// fails the test on an unreadable or malformed file.
func LoadCassette(t testing.TB, path string) []Interaction {
	t.Helper()
	rec, err := importer.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]Interaction, 0, len(rec.Exchanges))
	for _, e := range rec.Exchanges {
		out = append(out, Interaction{URI: e.URL, RequestBody: e.RequestBody, Status: e.Status, ResponseBody: e.ResponseBody})
	}
	return out
}

// Files lists the recorded files of one directory under [Dir]. It skips
// the test when the directory is absent and fails it when the directory
// holds nothing.
func Files(t testing.TB, sub string) []string {
	t.Helper()
	dir := filepath.Join(Dir(), sub)
	if _, err := os.Stat(dir); Dir() == "" || err != nil {
		t.Skipf("%s not present: %v", dir, err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no files (%v)", dir, err)
	}
	return files
}
