package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/replaycheck/replaycheck/engine"
)

// TestResaveDoesNoWork: saving an unchanged session again touches nothing:
// it succeeds at once even while another connection holds the write lock,
// where a save that began a transaction would wait for it.
func TestResaveDoesNoWork(t *testing.T) {
	ctx := context.Background()
	sess := longSession("resave", 8, 64)
	st, other := savedWithOther(t, sess)
	tx, err := other.db.BeginTx(ctx, nil) // _txlock=immediate: the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE sessions SET config = config WHERE id = 'none'"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- st.Save(ctx, sess) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("resave: %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("resave of an unchanged session waited for the write lock")
	}
	tx.Rollback()
	// A loaded session, saved unchanged, is no work either; a changed one is.
	loaded, err := st.Load(ctx, "resave")
	if err != nil {
		t.Fatal(err)
	}
	if !st.unchanged(ctx, "resave", st.known.fingerprints(loaded.Messages), mustConfig(t, loaded)) {
		t.Error("a session just loaded is not known as unchanged")
	}
	loaded.Messages = append(loaded.Messages, engine.Message{Role: "user", Content: raw(`"more"`)})
	if st.unchanged(ctx, "resave", st.known.fingerprints(loaded.Messages), mustConfig(t, loaded)) {
		t.Error("a session with one more message is known as unchanged")
	}
}

// TestResaveSeesOtherWriters: once another connection has written the
// file, a resave reads it again and refuses a history it no longer extends.
func TestResaveSeesOtherWriters(t *testing.T) {
	ctx := context.Background()
	sess := longSession("shared", 4, 64)
	st, other := savedWithOther(t, sess)
	if err := other.Append(ctx, "shared", engine.Message{Role: "user", Content: raw(`"from elsewhere"`)}); err != nil {
		t.Fatal(err)
	}
	if err := st.Save(ctx, sess); !errors.Is(err, ErrDiverged) {
		t.Fatalf("resave after another writer appended: %v, want %v", err, ErrDiverged)
	}
}

// savedWithOther saves sess in a new store and opens a second connection
// to the same file, closed when the test ends.
func savedWithOther(t *testing.T, sess *engine.Session) (st, other *Store) {
	t.Helper()
	st, path := openTemp(t)
	if err := st.Save(context.Background(), sess); err != nil {
		t.Fatal(err)
	}
	other, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	return st, other
}

func mustConfig(t *testing.T, s *engine.Session) []byte {
	t.Helper()
	b, err := encodeConfig(s.ID, s.Config)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
