package harness_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/suites/harness"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// TestResponseOnlyCassette reads back an imported response-only cassette,
// whose interactions have no request line because none was recorded, and
// refuses to write one whose request line was filled in.
func TestResponseOnlyCassette(t *testing.T) {
	build := func(url string) *harness.File {
		p := imported()
		p.Target, p.Host = "", ""
		p.Source.ResponseOnly, p.Source.Interactions, p.Source.Elsewhere = "gemini", []int{0}, nil
		it := &cassette.Interaction{Request: cassette.Request{URL: url}, Response: cassette.Response{Code: 200, Body: `[]`}}
		if url != "" {
			it.Request.Method = "POST"
		}
		return &harness.File{Version: cassette.CassetteFormatV2, Provenance: p, Interactions: []*cassette.Interaction{it}}
	}
	dir := t.TempDir()
	good := harness.DialectOnlyPath(dir, "gemini", "fixture")
	if good != filepath.Join(dir, "_dialect-gemini", harness.RecordedDir, "fixture.yaml") {
		t.Errorf("dialect-only path %s", good)
	}
	if mode, ok := harness.DialectOfDir("_dialect-gemini"); !ok || mode != "gemini" {
		t.Errorf("DialectOfDir(_dialect-gemini) = %q %v", mode, ok)
	}
	if _, ok := harness.DialectOfDir("gemini"); ok {
		t.Error("a target's directory is no dialect's")
	}
	if err := harness.Write(good, build("")); err != nil {
		t.Fatal(err)
	}
	if _, err := harness.Read(good); err != nil {
		t.Errorf("a response-only cassette without a request line: %v", err)
	}
	err := harness.Write(filepath.Join(dir, "bad.yaml"), build("https://generativelanguage.googleapis.com/v1beta/models/m:streamGenerateContent"))
	if want := "interaction 0: a response-only source recorded no request: the request line and body stay empty"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a made-up request line: error %v, want %q", err, want)
	}
}
