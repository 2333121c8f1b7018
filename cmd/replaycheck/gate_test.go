package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// strictReadsRC is the committed table with the strict row given
// reasoning_content: every strict provider refuses it.
func strictReadsRC(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(repoMatrix)
	if err != nil {
		t.Fatal(err)
	}
	old := "carriers: []\n    providers: [mistral"
	if !strings.Contains(string(b), old) {
		t.Fatal("the strict row is not where the test expects it")
	}
	head := filepath.Join(t.TempDir(), "matrix.yaml")
	if err := os.WriteFile(head, []byte(strings.Replace(string(b), old, "carriers: [reasoning_content]\n    providers: [mistral", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return head
}

// targetLine is the line of a target's entry in a matrix file.
func targetLine(t *testing.T, path, id string) string {
	t.Helper()
	b, _ := os.ReadFile(path)
	i := strings.Index(string(b), "{id: "+id+",")
	if i < 0 {
		t.Fatalf("no target %s in %s", id, path)
	}
	return strconv.Itoa(1 + strings.Count(string(b[:i]), "\n"))
}

func TestGateCommand(t *testing.T) {
	t.Parallel()
	gateArgs := func(head string, extra ...string) []string {
		return append([]string{"gate", "--base", repoMatrix, "--head", head, "--providers", repoProviders, "--cassettes", repoCassettes}, extra...)
	}
	t.Run("the committed table passes its own gate", func(t *testing.T) {
		r := runMain(t, "", gateArgs(repoMatrix)...)
		if r.code != exitOK || !strings.HasSuffix(r.stdout, "gate: no regression\n") {
			t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		// Off a terminal, progress goes to stderr one line per tenth.
		if strings.Count(r.stderr, "\n") != 10 || !strings.Contains(r.stderr, "gate: 100% (") || !strings.HasSuffix(r.stderr, " cells)\n") {
			t.Errorf("progress on stderr:\n%s", r.stderr)
		}
	})
	head := strictReadsRC(t)
	summary := filepath.Join(t.TempDir(), "summary.md")
	if err := os.WriteFile(summary, []byte("# earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("github annotations name the regressed target's line", func(t *testing.T) {
		r := runMain(t, "", gateArgs(head, "--format", "github", "--summary", summary)...)
		if r.code != exitFailures {
			t.Fatalf("exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
		}
		want := "::error file=" + head + ",line=" + targetLine(t, head, "mistral") + ",title=replaycheck regression%3A mistral/strict-schema::"
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no annotation %q in:\n%s", want, r.stdout)
		}
		if !strings.Contains(r.stdout, "Extra inputs are not permitted") {
			t.Errorf("the annotation must carry the provider's recorded error:\n%s", r.stdout)
		}
		for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
			if !strings.HasPrefix(line, "::") && !strings.HasPrefix(line, "gate: ") {
				t.Errorf("a line that is neither a workflow command nor the verdict: %q", line)
			}
		}
		b, err := os.ReadFile(summary)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), "# earlier step\n## replaycheck gate\n") || !strings.Contains(string(b), "| regression | `mistral/strict-schema`") {
			t.Errorf("--summary must append the Markdown table to the file:\n%s", b)
		}
	})
	t.Run("json is a contract for scripts", func(t *testing.T) {
		r := runMain(t, "", gateArgs(head, "--format", "json")...)
		var doc struct {
			Passed      bool
			Regressions int
			Changes     []struct{ Kind, Target, Scenario string }
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || r.code != exitFailures {
			t.Fatalf("exit %d, %v:\n%s", r.code, err, r.stdout)
		}
		if doc.Passed || doc.Regressions == 0 || doc.Regressions != countKind(doc.Changes, "regression") {
			t.Errorf("decoded %+v", doc)
		}
	})
	t.Run("an unknown format is a usage error", func(t *testing.T) {
		r := runMain(t, "", gateArgs(repoMatrix, "--format", "yaml")...)
		if r.code != exitUsage || !strings.Contains(r.stderr, `--format "yaml": unknown format (want text, markdown, json, github)`) {
			t.Errorf("exit %d: %s", r.code, r.stderr)
		}
	})
}

func countKind(changes []struct{ Kind, Target, Scenario string }, kind string) int {
	n := 0
	for _, c := range changes {
		if c.Kind == kind {
			n++
		}
	}
	return n
}

// TestGateOutsideTheCells: what no recorded cell shows is still said. A
// head table that does not load is annotated on its line; a decision
// change no target or alias takes is named with its routes; a table entry
// nothing reaches fails the gate; a missing cassette directory is a
// harness error, never "no regression".
func TestGateOutsideTheCells(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(repoMatrix)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(old, new string) string {
		t.Helper()
		if !strings.Contains(string(raw), old) {
			t.Fatalf("no %q in the committed table", old)
		}
		path := filepath.Join(t.TempDir(), "matrix.yaml")
		if err := os.WriteFile(path, []byte(strings.Replace(string(raw), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	gate := func(head string, extra ...string) result {
		return runMain(t, "", append([]string{"gate", "--base", repoMatrix, "--head", head, "--providers", repoProviders, "--cassettes", repoCassettes}, extra...)...)
	}
	line := func(s string) string {
		return strconv.Itoa(1 + strings.Count(string(raw[:strings.Index(string(raw), s)]), "\n"))
	}

	t.Run("a head table that does not load is annotated on its line", func(t *testing.T) {
		head := edit("default_carriers: [reasoning_content]", "default_carriers: [reasoning_contnet]")
		r := gate(head, "--format", "github")
		want := "::error file=" + head + ",line=" + line("default_carriers: [reasoning_content]") + ",title=replaycheck gate::"
		if r.code != exitHarness || !strings.HasPrefix(r.stdout, want) {
			t.Errorf("exit %d, want 3 and %q:\n%s%s", r.code, want, r.stdout, r.stderr)
		}
		head = edit("default_carriers: [reasoning_content]", "default_carriers: [reasoning_content")
		want = "::error file=" + head + ",line=" + line("default_carriers: [reasoning_content]") + ",title=replaycheck gate::"
		if r := gate(head, "--format", "github"); r.code != exitHarness || !strings.HasPrefix(r.stdout, want) {
			t.Errorf("a YAML syntax error: exit %d, want 3 and %q (the line of the unclosed [):\n%s%s", r.code, want, r.stdout, r.stderr)
		}
	})
	t.Run("decision changes no cell judges are named", func(t *testing.T) {
		r := gate(edit("default_carriers: [reasoning_content]", "default_carriers: [reasoning_content, reasoning_details]"))
		if r.code != exitOK || !strings.Contains(r.stdout, "UNCHECKED") ||
			!strings.Contains(r.stdout, "chat: carriers reasoning_content -> reasoning_content,reasoning_details: ") ||
			!strings.Contains(r.stdout, "gate: no regression, but ") {
			t.Errorf("exit %d, want 0 naming the routes no cell judges:\n%s%s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("an entry nothing reaches fails the gate", func(t *testing.T) {
		head := edit("hosts: [mistral.ai, groq.com,", "hosts: [mistral.ai, groq.com, api.together.xyz,")
		r := gate(head)
		if r.code != exitFailures || !strings.Contains(r.stdout, "UNCOVERED   "+head+":"+line("hosts: [mistral.ai, groq.com,")+": carrier_routes[strict].hosts: api.together.xyz: no target or alias reaches this entry") {
			t.Errorf("exit %d, want 1 naming the entry:\n%s%s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("no cassettes is a harness error", func(t *testing.T) {
		r := runMain(t, "", "gate", "--base", repoMatrix, "--head", repoMatrix, "--providers", repoProviders, "--cassettes", "nope")
		if r.code != exitHarness || !strings.Contains(r.stderr, "replaycheck gate: cassettes nope: no such directory") || strings.Contains(r.stdout, "no regression") {
			t.Errorf("exit %d, want 3 naming the directory:\n%s%s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("a base that is no file and no ref names both", func(t *testing.T) {
		r := gate(repoMatrix, "--base", "no-such-ref")
		if r.code != exitHarness || !strings.Contains(r.stderr, "replaycheck gate: --base \"no-such-ref\" is neither a file nor a git ref") {
			t.Errorf("exit %d:\n%s", r.code, r.stderr)
		}
	})
}
