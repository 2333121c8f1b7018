package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/internal/longsession"
)

// TestShapeLayout: shape indents a small body and writes a large one on
// one line, and --indent / --compact override either way; the bytes are
// the same document.
func TestShapeLayout(t *testing.T) {
	shape := func(session string, extra ...string) string {
		t.Helper()
		args := append([]string{"shape", "--matrix", repoMatrix, "--session", session}, longRoute...)
		r := runMain(t, "", append(args, extra...)...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, r.code, r.stderr)
		}
		return r.stdout
	}
	lines := func(s string) int { return strings.Count(s, "\n") }
	if n := lines(shape(sampleSession)); n < 10 {
		t.Errorf("a small body is written on %d lines, want it indented", n)
	}
	compact := shape(sampleSession, "--compact")
	if n := lines(compact); n != 1 {
		t.Errorf("--compact wrote %d lines, want 1", n)
	}
	big := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(big, longsession.Generate(60, 10<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	large := shape(big)
	if n := lines(large); n != 1 || len(large) < bigJSON {
		t.Errorf("a %d-byte body is written on %d lines, want one", len(large), n)
	}
	indented := shape(big, "--indent")
	if lines(indented) < 100 {
		t.Errorf("--indent wrote %d lines", lines(indented))
	}
	if got := compactOf(t, indented); got != large {
		t.Error("--indent and the default differ in more than layout")
	}
	r := runMain(t, "", append([]string{"shape", "--matrix", repoMatrix, "--session", sampleSession, "--indent", "--compact"}, longRoute...)...)
	if r.code != 2 || !strings.Contains(r.stderr, "--indent and --compact: give one") {
		t.Errorf("both flags: exit %d, %q", r.code, r.stderr)
	}
}

// compactOf returns an indented document compacted, with its newline.
func compactOf(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.String() + "\n"
}
