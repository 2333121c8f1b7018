package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seeds adds every fixture of a testdata directory to a fuzz corpus (for
// fixtures small enough to minimise quickly).
func seeds(f *testing.F, glob string) {
	f.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", glob))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
}

// FuzzReadCassette checks that no YAML cassette, VCR.py or go-vcr, makes
// the reader panic, and that every error names the file.
func FuzzReadCassette(f *testing.F) {
	// Small seeds, one per feature: the fuzzer minimises every input that
	// finds new coverage, and whole fixtures make that take the run.
	for _, s := range []string{
		"interactions:\n- request: {uri: 'https://a.test/v1/chat/completions', method: POST, body: '{\"model\":\"m\"}', headers: {content-type: [application/json]}}\n  response: {status: {code: 200, message: OK}, body: {string: '{}'}}\nversion: 1\n",
		"interactions:\n- request:\n    uri: https://a.test/v1/messages\n    method: POST\n    parsed_body: {model: m, n: 1.0, x: [true, null]}\n  response:\n    status: {code: 400}\n    parsed_body: {error: {message: no}}\n",
		"interactions:\n- request: {uri: 'https://b.test/model/m/converse-stream', method: POST, headers: {content-type: [!!binary YQ==]}}\n  response:\n    status: {code: 200}\n    headers: {content-type: [application/vnd.amazon.eventstream]}\n    body: {string: !!binary AAAAEAAAAAAFY7DWwUs49A==}\n",
		"interactions:\n- request: {uri: x, method: POST}\n  response:\n    status: {code: 200}\n    headers: {content-encoding: [gzip]}\n    body: {string: !!binary H4sIAAAAAAAA/6quBQQAAP//Q7+/owIAAAA=}\n",
		"version: 2\ninteractions:\n  - id: 0\n    request: {url: 'https://a.test/v1/chat/completions', method: POST, body: '{}'}\n    response: {code: 200, status: 200 OK, body: '{}'}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := readCassette("c.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "c.yaml: ") {
				t.Errorf("error without the file name: %v", err)
			}
			return
		}
		for i, e := range rec.Exchanges {
			if e.Index != i || e.Status < 100 || e.Status > 599 || e.Method == "" {
				t.Errorf("exchange %d: %+v", i, e)
			}
		}
	})
}

// FuzzReadChunks checks the Vercel AI SDK chunk reader.
func FuzzReadChunks(f *testing.F) {
	seeds(f, "aisdk/*.chunks.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := readAISDKChunks("x.chunks.txt", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "x.chunks.txt: interaction ") {
				t.Errorf("error without the file and interaction: %v", err)
			}
			return
		}
		if len(rec.Exchanges) == 0 {
			t.Errorf("read no exchange and no error")
		}
		for i, e := range rec.Exchanges {
			if e.Index != i || e.Mode != rec.Exchanges[0].Mode || len(e.ResponseBody) == 0 {
				t.Errorf("stream %d: %+v", i, e)
			}
		}
	})
}

// FuzzOpenRouterLines checks the response.jsonl reader, SSE or not.
func FuzzOpenRouterLines(f *testing.F) {
	seeds(f, "openrouter/*/response.jsonl")
	f.Add([]byte(`{"json":{"a":1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, sse := range []bool{true, false} {
			body, err := openRouterLines(data, sse)
			if err == nil && len(body) == 0 {
				t.Errorf("sse %v: an empty body without an error", sse)
			}
		}
	})
}

// FuzzNodeJSON checks that a parsed_body always converts to valid JSON or
// fails with its line.
func FuzzNodeJSON(f *testing.F) {
	f.Add([]byte("a: 1.0\nb: [x, {c: null}]\nd: !!binary aGk=\n"))
	f.Add([]byte("a: &x {b: 1}\nc: *x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		root, err := parseYAML(data)
		if err != nil {
			return
		}
		out, err := nodeJSON(root)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "line ") {
				t.Errorf("error without its line: %v", err)
			}
			return
		}
		if _, err := compactJSON(out); err != nil {
			t.Errorf("%q became invalid JSON %q: %v", data, out, err)
		}
	})
}

// FuzzManifest checks the MANIFEST.md table reader: no panic, and a row it
// cites always names a repository and a path.
func FuzzManifest(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", ManifestName)); err == nil {
		f.Add(b, "vcrpy/parsed-body.yaml")
	}
	f.Add([]byte("| file | source repo | path |\n|---|---|---|\n| `d/a.json` | o/r | p/a.json |\n"), "d")
	f.Fuzz(func(t *testing.T, text []byte, rel string) {
		src, ok, err := manifestSource("M.md", string(text), rel)
		if ok && (err != nil || src.Repository == "" || src.Path == "") {
			t.Errorf("cited %+v with error %v", src, err)
		}
	})
}
