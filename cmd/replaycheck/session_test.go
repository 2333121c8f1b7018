package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/store"
)

// sampleStore writes the sample session and a small second one into a new
// store file and returns its path.
func sampleStore(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(sampleSession)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := engine.ParseSession(b)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sessions.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	if err := st.Create(ctx, sess); err != nil {
		t.Fatal(err)
	}
	if err := st.Create(ctx, &engine.Session{ID: "another", Messages: sess.Messages[:2]}); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSessionShowGolden(t *testing.T) {
	db := sampleStore(t)
	runGolden(t, []goldenCase{
		{reason: "the list of sessions", golden: "session-list.txt", args: []string{"session", "show", "--db", db}},
		{reason: "the list of sessions as JSON", golden: "session-list.json", args: []string{"session", "show", "--db", db, "--json"}},
		{reason: "one session turn by turn", golden: "session-show.txt", args: []string{"session", "show", "--db", db, "sample"}},
		{reason: "one session as JSON, flag after the id", golden: "session-show.json", args: []string{"session", "show", "--db", db, "sample", "--json"}},
	})
}

// TestSessionShowJSONShapesLikeTheSource checks that the --json document
// is a session shape reads, and that it shapes exactly like the file the
// session was stored from (SPEC §8 through the CLI).
func TestSessionShowJSONShapesLikeTheSource(t *testing.T) {
	db := sampleStore(t)
	shown := runMain(t, "", "session", "show", "--db", db, "--json", "sample")
	if shown.code != 0 {
		t.Fatalf("exit %d: %s", shown.code, shown.stderr)
	}
	routes := []struct {
		reason string
		args   []string
	}{
		{"gateway reads every carrier", []string{"--provider", "openrouter", "--base-url", "https://openrouter.ai/api/v1", "--model", "anthropic/claude-sonnet-4.5"}},
		{"the stored rejection still applies", []string{"--provider", "openrouter", "--base-url", "https://openrouter.ai/api/v1", "--model", "z-ai/glm-5.3"}},
		{"gemini unpacks the record", []string{"--provider", "gemini", "--base-url", "https://generativelanguage.googleapis.com/v1beta/openai", "--model", "gemini-3-pro-preview"}},
		{"copilot unpacks the record", []string{"--provider", "copilot", "--base-url", "https://api.githubcopilot.com", "--model", "claude-sonnet-4.5"}},
	}
	for _, r := range routes {
		args := append([]string{"shape", "--matrix", testMatrix}, r.args...)
		want := runMain(t, "", append(args, "--session", sampleSession)...)
		got := runMain(t, shown.stdout, args...)
		if want.code != 0 || got.code != 0 {
			t.Fatalf("%s: exit %d / %d: %s%s", r.reason, want.code, got.code, want.stderr, got.stderr)
		}
		if want.stdout != got.stdout {
			t.Errorf("%s: the stored session shapes differently:\nfile:\n%s\nstore:\n%s", r.reason, want.stdout, got.stdout)
		}
	}
}

// TestExampleSession runs the commands examples/session/README.md and the
// top-level README show on the shipped session: shape for a route that
// reads reasoning and one that refuses it, then session save and show.
func TestExampleSession(t *testing.T) {
	const example = "../../examples/session/session.json"
	deepseek := runMain(t, "", "shape", "--matrix", repoMatrix, "--provider", "deepseek", "--base-url", "https://api.deepseek.com/v1", "--model", "deepseek-v4-flash", "--session", example)
	if deepseek.code != exitOK || strings.Count(deepseek.stdout, `"reasoning_content"`) != 2 {
		t.Errorf("shape for DeepSeek: exit %d, want both turns' reasoning_content:\n%s%s", deepseek.code, deepseek.stdout, deepseek.stderr)
	}
	mistral := runMain(t, "", "shape", "--matrix", repoMatrix, "--provider", "mistral", "--base-url", "https://api.mistral.ai/v1", "--model", "magistral-medium-latest", "--session", example)
	if mistral.code != exitOK || strings.Contains(mistral.stdout, "reasoning") {
		t.Errorf("shape for Mistral: exit %d, want no reasoning key:\n%s%s", mistral.code, mistral.stdout, mistral.stderr)
	}
	db := filepath.Join(t.TempDir(), "sessions.db")
	r := runMain(t, "", "session", "save", "--db", db, example)
	if r.code != exitOK || r.stdout != "saved session porto-weather (6 messages) in "+db+"\n" {
		t.Fatalf("session save: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runMain(t, "", "session", "show", "--db", db, "porto-weather")
	if r.code != exitOK || !strings.Contains(r.stdout, "session porto-weather: 6 messages, 2 turns") || !strings.Contains(r.stdout, `reasoning_content "Rain is 2.4 mm/h`) {
		t.Errorf("session show: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Saving again is idempotent; a file whose messages do not extend the
	// stored ones is refused.
	if r := runMain(t, "", "session", "save", "--db", db, example); r.code != exitOK {
		t.Errorf("saving the same session again: exit %d: %s", r.code, r.stderr)
	}
	other := filepath.Join(t.TempDir(), "other.json")
	if err := os.WriteFile(other, []byte(`{"id":"porto-weather","messages":[{"role":"user","content":"something else"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runMain(t, "", "session", "save", "--db", db, other); r.code != exitHarness || !strings.Contains(r.stderr, "porto-weather") {
		t.Errorf("a history that does not extend the stored one: exit %d: %s", r.code, r.stderr)
	}
	if r := runMain(t, "", "session", "save", "--db", db); r.code != exitUsage || !strings.Contains(r.stderr, "missing the session file") {
		t.Errorf("no file: exit %d: %s", r.code, r.stderr)
	}
}
