package store

import (
	"context"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

// totalChanges is the number of rows this Store's connection has
// inserted, updated or deleted since it opened.
func totalChanges(t *testing.T, st *Store) int {
	t.Helper()
	var n int
	if err := st.db.QueryRow("SELECT total_changes()").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestResaveWritesNothing: saving an unchanged session, saved or loaded,
// changes no row and encodes no message (encoding allocates per message;
// a resave of 1,000 messages allocates a few dozen times at most). Saving
// it with k more messages writes k rows, and with a new config one more.
func TestResaveWritesNothing(t *testing.T) {
	ctx := context.Background()
	st, _ := openTemp(t)
	sess := longSession("quiet", 1000, 256)
	if err := st.Save(ctx, sess); err != nil {
		t.Fatal(err)
	}
	loaded, err := st.Load(ctx, "quiet")
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*engine.Session{"saved": sess, "loaded": loaded} {
		before := totalChanges(t, st)
		allocs := testing.AllocsPerRun(5, func() {
			if err := st.Save(ctx, s); err != nil {
				t.Fatal(err)
			}
		})
		if got := totalChanges(t, st) - before; got != 0 {
			t.Errorf("resave of the %s session changed %d rows", name, got)
		}
		if allocs > 50 {
			t.Errorf("resave of the %s session allocated %.0f times for 1,000 messages: it encodes them", name, allocs)
		}
	}

	grown := *loaded
	grown.Messages = append(grown.Messages[:len(grown.Messages):len(grown.Messages)],
		engine.Message{Role: "user", Content: raw(`"one more"`)},
		engine.Message{Role: "assistant", Content: raw(`"and its answer"`)})
	before := totalChanges(t, st)
	if err := st.Save(ctx, &grown); err != nil {
		t.Fatal(err)
	}
	if got := totalChanges(t, st) - before; got != 2 {
		t.Errorf("saving 2 more messages changed %d rows, want 2", got)
	}
	grown.Config = engine.ModelConfig{RejectedSignatures: []string{"sha256:feed"}}
	before = totalChanges(t, st)
	if err := st.Save(ctx, &grown); err != nil {
		t.Fatal(err)
	}
	if got := totalChanges(t, st) - before; got != 1 {
		t.Errorf("saving a new config changed %d rows, want 1", got)
	}
	again, err := st.Load(ctx, "quiet")
	if err != nil {
		t.Fatal(err)
	}
	assertReplaysLike(t, &grown, again)
}

// TestSaveTailChecksTheFile: the short way of saving only new messages
// writes nothing when the file no longer holds what the Store remembers;
// Save then takes the long way, which reads the stored history.
func TestSaveTailChecksTheFile(t *testing.T) {
	ctx := context.Background()
	sess := longSession("tail", 8, 64)
	st, other := savedWithOther(t, sess)
	remembered, ok := st.known.lookup("tail")
	if !ok {
		t.Fatal("a saved session is not remembered")
	}
	grown := *sess
	grown.Messages = append(grown.Messages[:8:8], engine.Message{Role: "user", Content: raw(`"next"`)})
	fps := st.known.fingerprints(grown.Messages)
	cfg := mustConfig(t, &grown)

	// This Store appended behind its own memory's back.
	if err := st.Append(ctx, "tail", engine.Message{Role: "user", Content: raw(`"appended"`)}); err != nil {
		t.Fatal(err)
	}
	if done, err := st.saveTail(ctx, &grown, remembered, fps, cfg); err != nil || done {
		t.Fatalf("saveTail over a longer stored history: done %v, %v", done, err)
	}
	// Another connection wrote the file.
	remembered.fps = append(remembered.fps, fps[8])
	if err := other.SaveConfig(ctx, "tail", engine.ModelConfig{SealedBlobs: []string{"sha256:0"}}); err != nil {
		t.Fatal(err)
	}
	if done, err := st.saveTail(ctx, &grown, remembered, fps, cfg); err != nil || done {
		t.Fatalf("saveTail after another writer: done %v, %v", done, err)
	}
	loaded, err := st.Load(ctx, "tail")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(loaded.Messages); n != 9 || string(loaded.Messages[8].Content) != `"appended"` {
		t.Fatalf("a refused saveTail wrote: %d messages, last %s", n, loaded.Messages[n-1].Content)
	}
	if len(loaded.Config.SealedBlobs) != 1 {
		t.Errorf("a refused saveTail wrote the config: %+v", loaded.Config)
	}
}
