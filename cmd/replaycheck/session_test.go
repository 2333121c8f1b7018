package main

import (
	"context"
	"os"
	"path/filepath"
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
