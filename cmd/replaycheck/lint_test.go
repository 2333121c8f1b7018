package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/suites/harness"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

func lintArgs(dir string) []string {
	return []string{"lint", "--cassettes", dir, "--matrix", repoMatrix, "--providers", repoProviders}
}

func TestLintCommittedCassettes(t *testing.T) {
	r := runMain(t, "", lintArgs(repoCassettes)...)
	if r.code != 0 {
		t.Fatalf("lint of the committed cassettes: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.HasPrefix(r.stdout, "lint: ") || strings.Count(r.stdout, "\n") != 1 || r.stderr != "" {
		t.Errorf("want a one-line summary; stdout %q, stderr %q", r.stdout, r.stderr)
	}
}

// copyTree copies the committed cassettes into a temporary directory.
func copyTree(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

// edit rewrites one cassette of dir through fn.
func edit(t *testing.T, dir, target, sc string, fn func(f *harness.File)) string {
	t.Helper()
	path := harness.Path(dir, target, sc)
	f, err := harness.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	fn(f)
	if err := harness.Write(path, f); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLintFindings(t *testing.T) {
	t.Parallel()
	dir := copyTree(t, repoCassettes)
	tests := []struct {
		reason string
		plant  func() string // returns the file the finding names
		want   []string      // what the finding line says after "<file>: "
	}{
		{"an Authorization header", func() string {
			return edit(t, dir, "deepseek", "carriers", func(f *harness.File) {
				f.Interactions[1].Request.Headers.Set("Authorization", "Bearer "+fakeKey)
			})
		}, []string{"interaction 1 request header Authorization: looks like a credential (credential header)",
			"interaction 1 request header Authorization: looks like a credential (bearer token)"}},
		{"an sk- key in a response body", func() string {
			return edit(t, dir, "kimi", "missing-echo", func(f *harness.File) {
				f.Interactions[0].Response.Body += "\nsk-proj-abcdefghijklmnopqrstuvwx"
			})
		}, []string{"interaction 0 response body: looks like a credential (OpenAI-style key (sk-…))"}},
		{"a Google key in a request URL", func() string {
			return edit(t, dir, "gemini", "carriers", func(f *harness.File) {
				f.Interactions[0].Request.URL += "?key=AIzaSyA-0123456789abcdefghijklmnopqrstu"
			})
		}, []string{"interaction 0 request url: looks like a credential (Google API key (AIza…))"}},
		{"an auth failure committed from an older replaycheck", func() string {
			return edit(t, dir, "deepseek", "resume", func(f *harness.File) {
				f.Interactions[2].Response.Code, f.Interactions[2].Response.Status = 401, "401 Unauthorized"
				f.Interactions[2].Response.Body = deepSeekAuthFailure
			})
		}, []string{"interaction 2: 401 Unauthorized (the endpoint refused the key) is not the provider judging the request: re-record the cassette"}},
		{"a server error", func() string {
			return edit(t, dir, "kimi", "branch", func(f *harness.File) {
				f.Interactions[0].Response.Code, f.Interactions[0].Response.Status = 503, "503 Service Unavailable"
			})
		}, []string{"interaction 0: 503 Service Unavailable (the provider failed) is not the provider judging the request: re-record the cassette"}},
		{"a missing cassette", func() string {
			path := harness.Path(dir, "mimo", "carriers")
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			return path
		}, []string{"missing: scenario carriers applies to target mimo; record it with: replaycheck record --target mimo --scenario carriers"}},
		{"a cassette for a target the matrix does not have", func() string {
			path := harness.Path(dir, "retired", "carriers")
			copyFile(t, harness.Path(dir, "deepseek", "branch"), path)
			return path
		}, []string{"provenance names deepseek/branch, but the file sits at retired/carriers", `no target "retired" in ` + repoMatrix}},
		{"a cassette for a scenario that does not apply", func() string {
			copyFile(t, harness.Path(dir, "deepseek", "resume"), harness.Path(dir, "deepseek", "strict-schema"))
			return edit(t, dir, "deepseek", "strict-schema", func(f *harness.File) { f.Provenance.Scenario = "strict-schema" })
		}, []string{"scenario strict-schema does not apply to target deepseek"}},
		{"a cassette simulated from an older profile version", func() string {
			return edit(t, dir, "groq", "carriers", func(f *harness.File) { f.Provenance.ProfileVersion += 7 })
		}, []string{"simulated from groq v"}},
		{"a cassette that does not parse", func() string {
			path := harness.Path(dir, "openai", "carriers")
			if err := os.WriteFile(path, []byte("version: 2\nprovenance: {kind: simulated}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return path
		}, []string{"simulated provenance needs profile and profile_version"}},
		{"a temporary file left by a killed recording", func() string {
			path := filepath.Join(dir, "glm", ".cassette-123.tmp")
			if err := os.WriteFile(path, []byte("partial"), 0o644); err != nil {
				t.Fatal(err)
			}
			return path
		}, []string{"leftover temporary file of an interrupted recording"}},
	}
	var planted []string
	for _, tt := range tests {
		planted = append(planted, tt.plant())
	}
	r := runMain(t, "", lintArgs(dir)...)
	if r.code != exitFailures {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	for i, tt := range tests {
		for _, w := range tt.want {
			want := planted[i] + ": " + w
			found := false
			for _, l := range lines {
				found = found || strings.HasPrefix(l, want)
			}
			if !found {
				t.Errorf("%s: no finding %q in:\n%s", tt.reason, want, r.stdout)
			}
		}
	}
	for _, l := range lines {
		ok := false
		for _, p := range planted {
			ok = ok || strings.HasPrefix(l, p+": ")
		}
		if !ok {
			t.Errorf("finding about a file nothing was planted in: %s", l)
		}
	}
	if want := "replaycheck lint: " + strconv.Itoa(len(lines)) + " lint findings\n"; r.stderr != want {
		t.Errorf("stderr %q, want %q", r.stderr, want)
	}
}

func TestLintErrors(t *testing.T) {
	tests := []struct {
		reason string
		args   []string
		code   int
		stderr string
	}{
		{"a cassette directory that does not exist", lintArgs("no-such-dir"), exitHarness, "no-such-dir: not a directory"},
		{"a stray argument", append(lintArgs(repoCassettes), "x"), exitUsage, `unexpected argument "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			r := runMain(t, "", tt.args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", r.code, r.stderr, tt.code, tt.stderr)
			}
		})
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLintImported checks the imported cassettes under <target>/recorded/,
// in the cassettes directory and in an --evidence directory, one broken
// way per row.
func TestLintImported(t *testing.T) {
	t.Parallel()
	imported := func(edit func(f *harness.File)) *harness.File {
		f := &harness.File{Version: 2, Provenance: harness.Provenance{Kind: harness.Recorded, Target: "deepseek", Host: "api.deepseek.com",
			Source: &harness.Source{Repository: "example/agent", Path: "tests/c.yaml", Format: "vcrpy", Interactions: []int{0}}},
			Interactions: []*cassette.Interaction{{
				Request:  cassette.Request{Method: "POST", URL: "https://api.deepseek.com/v1/chat/completions", Body: `{"model":"m"}`},
				Response: cassette.Response{Code: 200, Body: `{}`},
			}}}
		if edit != nil {
			edit(f)
		}
		return f
	}
	tests := []struct {
		target, name string
		file         *harness.File
		want         string // a fragment of the one finding, "" for none
		reason       string
	}{
		{"deepseek", "good", imported(nil), "", "a well-formed imported cassette"},
		{"kimi", "moved", imported(nil), "provenance names target deepseek, but the file sits under kimi", "the directory names the target"},
		{"deepseek", "Bad_Name", imported(nil), `the name "Bad_Name" is not lower-case words`, "names are kebab-case"},
		{"deepseek", "key", imported(func(f *harness.File) {
			f.Interactions[0].Request.Headers = map[string][]string{"Cookie": {"__cf_bm=abc"}}
		}), "interaction 0 request header Cookie: looks like a credential", "a cookie left in an imported cassette"},
		{"deepseek", "scenario", &harness.File{Version: 2, Provenance: harness.Provenance{Kind: harness.Recorded, Target: "deepseek", Scenario: "carriers", Date: "2026-03-01", Host: "api.deepseek.com"}},
			"an imported cassette must carry recorded provenance citing its source", "a scenario cassette is not imported evidence"},
	}
	// One copy of the committed cassettes serves every case: each case's
	// imported file is removed after it.
	cassettes := copyTree(t, repoCassettes)
	for _, tc := range tests {
		for _, where := range []string{"cassettes", "evidence"} {
			dir := cassettes
			args := lintArgs(cassettes)
			if where == "evidence" {
				dir = t.TempDir()
				args = append(lintArgs(repoCassettes), "--evidence", dir)
			}
			path := harness.RecordedPath(dir, tc.target, tc.name)
			if err := harness.Write(path, tc.file); err != nil {
				t.Fatal(err)
			}
			r := runMain(t, "", args...)
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.want == "" && (r.code != 0 || !strings.Contains(r.stdout, "(1 imported)")):
				t.Errorf("%s (%s): exit %d:\n%s", tc.reason, where, r.code, r.stdout)
			case tc.want != "" && (r.code != 1 || strings.Count(r.stdout, "\n") != 1 || !strings.Contains(r.stdout, tc.want)):
				t.Errorf("%s (%s): exit %d, want one finding with %q:\n%s", tc.reason, where, r.code, tc.want, r.stdout)
			}
		}
	}
}
