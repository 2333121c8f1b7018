package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// importFixtures is the importer's own fixture tree: one hand-written
// recording in every foreign format, with a MANIFEST.md citing two of them.
const importFixtures = "../../importer/testdata"

// importArgs imports the fixtures into out, citing the rest of them as this
// repository's files.
func importArgs(out string, extra ...string) []string {
	return append([]string{"import", "--matrix", repoMatrix, "--out", out,
		"--source-repository", "replaycheck/replaycheck", "--source-path", "importer/testdata"}, extra...)
}

// TestImport imports every fixture format, then lints and runs over what
// it wrote: the import output, the evidence section of the matrix, and the
// scrubbed cassettes.
func TestImport(t *testing.T) {
	out := filepath.Join(t.TempDir(), "evidence")
	r := runMain(t, "", append(importArgs(out), importFixtures)...)
	if r.code != 0 {
		t.Fatalf("import: exit %d: %s", r.code, r.stderr)
	}
	checkGolden(t, "import.txt", strings.ReplaceAll(r.stdout, out, "OUT"))

	t.Run("scrubbed", func(t *testing.T) {
		err := filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, planted := range []string{"planted", "Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "X-Amz-Date", "key="} {
				if strings.Contains(string(b), planted) {
					t.Errorf("%s keeps %q: import must scrub as record does", path, planted)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})

	t.Run("lint", func(t *testing.T) {
		r := runMain(t, "", "lint", "--matrix", repoMatrix, "--providers", repoProviders, "--cassettes", "../../cassettes", "--evidence", out)
		if r.code != 0 || !strings.Contains(r.stdout, "(13 imported)") {
			t.Errorf("lint over the imported cassettes: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
		}
	})

	t.Run("run", func(t *testing.T) {
		fixture := recordRunFixture(t)
		r := runMain(t, "", runArgs(fixture, "--evidence", out, "--format", "md")...)
		if r.code != 0 {
			t.Fatalf("run: exit %d: %s", r.code, r.stderr)
		}
		checkGolden(t, "run-evidence.md", r.stdout)
	})

	t.Run("again", func(t *testing.T) {
		before := snapshot(t, out)
		if r := runMain(t, "", append(importArgs(out), importFixtures)...); r.code != 0 {
			t.Fatalf("import again: exit %d: %s", r.code, r.stderr)
		}
		if after := snapshot(t, out); after != before {
			t.Error("importing the same sources twice changed the cassettes: imports are not byte-stable")
		}
	})
}

// snapshot concatenates a tree's files in path order.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(path)
			b.WriteString(path + "\n" + string(data))
		}
		return err
	})
	return b.String()
}

// TestImportErrors checks usage errors (exit 2) and bad input (exit 3,
// naming the file and the interaction, the other sources still imported).
func TestImportErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("interactions:\n- request: {method: POST, uri: 'https://api.deepseek.com/v1/chat/completions', body: '{}'}\n  response: {status: {code: 200}, body: {string: !!binary 'not*base64'}}\n"), 0o644)
	good := filepath.Join(dir, "good.yaml")
	os.WriteFile(good, []byte("interactions:\n- request: {method: POST, uri: 'https://api.deepseek.com/v1/chat/completions', body: '{}'}\n  response: {status: {code: 200}, body: {string: '{}'}}\n"), 0o644)
	out := filepath.Join(dir, "out")
	tests := []struct {
		args   []string
		code   int
		stderr string
		stdout string
		reason string
	}{
		{[]string{"import", "--matrix", repoMatrix}, 2, "missing PATH", "", "a path is required"},
		{[]string{"import", "--matrix", repoMatrix, "--target", "nope", good}, 2, `--target "nope": no such target`, "", "a forced target exists"},
		{[]string{"import", "--matrix", repoMatrix, "--name", "Bad Name", good}, 2, `--name "Bad Name"`, "", "names are kebab-case"},
		{[]string{"import", "--matrix", repoMatrix, "--out", out, good}, 3, "1 source could not be imported",
			"its source is unknown: pass --source-repository and --source-path", "evidence cites its source"},
		{append(importArgs(out), dir), 3, "1 source could not be imported",
			"bad.yaml: interaction 0: response body: line 3: !!binary: bad base64", "bad input names the file, the interaction and the line; good.yaml is still imported"},
	}
	for _, tc := range tests {
		r := runMain(t, "", tc.args...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.stderr) || !strings.Contains(r.stdout, tc.stdout) {
			t.Errorf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", tc.reason, r.code, r.stdout, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "deepseek", "recorded", "good.yaml")); err != nil {
		t.Errorf("the good source beside a bad one was not imported: %v", err)
	}
}
