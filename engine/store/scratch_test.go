package store

import (
	"context"
	"path/filepath"
	"testing"
)

// TestScratchStore: a scratch store is never synced to disk, yet closing
// and opening it again reads the file, so a resume through it is real; a
// store opened with Open keeps SQLite's full durability.
func TestScratchStore(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sessions.db")
	live := richSession("scratch")
	st, err := OpenScratch(path)
	if err != nil {
		t.Fatal(err)
	}
	if sync := pragma(t, st, "synchronous"); sync != 0 {
		t.Errorf("scratch store: synchronous=%d, want 0 (OFF)", sync)
	}
	if err := st.Save(ctx, live); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err = OpenScratch(path); err != nil {
		t.Fatal(err)
	}
	loaded, err := st.Load(ctx, live.ID)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	assertReplaysLike(t, live, loaded)

	kept, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer kept.Close()
	if sync := pragma(t, kept, "synchronous"); sync != 2 {
		t.Errorf("a kept store: synchronous=%d, want 2 (FULL)", sync)
	}
	if _, err := kept.Load(ctx, live.ID); err != nil {
		t.Errorf("Open reads what a scratch store wrote: %v", err)
	}
}

// pragma reads an integer PRAGMA of the store's connection.
func pragma(t *testing.T, st *Store, name string) int {
	t.Helper()
	var v int
	if err := st.db.QueryRow("PRAGMA " + name).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
