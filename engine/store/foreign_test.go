package store

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

// foreignDB writes a SQLite file of another program: a table of its own,
// no schema version.
func foreignDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "app.db")
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')"); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOpenLeavesForeignDatabasesAlone(t *testing.T) {
	path := foreignDB(t)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, open := range []struct {
		name string
		fn   func(string) (*Store, error)
	}{{"Open", Open}, {"OpenReadOnly", OpenReadOnly}} {
		st, err := open.fn(path)
		if err == nil {
			st.Close()
			t.Fatalf("%s of another program's database succeeded", open.name)
		}
		want := "store: open " + path + ": not a replaycheck session store: another program's database (tables notes, no schema version); it is left untouched"
		if err.Error() != want {
			t.Errorf("%s: error\n got  %v\n want %s", open.name, err, want)
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("opening another program's database changed the file")
	}
}

func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	st, path := openTemp(t)
	if err := st.Create(ctx, richSession("s")); err != nil {
		t.Fatal(err)
	}
	st.Close()
	before, _ := os.ReadFile(path)

	ro, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if got, err := ro.Load(ctx, "s"); err != nil || len(got.Messages) != len(richSession("s").Messages) {
		t.Errorf("a read-only store must load what was stored: %v", err)
	}
	if err := ro.Create(ctx, &engine.Session{ID: "new"}); err == nil || !strings.Contains(err.Error(), "readonly") {
		t.Errorf("a write through a read-only store must fail, got %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("a read-only store changed the file")
	}

	empty := filepath.Join(t.TempDir(), "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if st, err := OpenReadOnly(empty); err == nil || err.Error() != "store: open "+empty+": not a replaycheck session store (no schema)" {
		if st != nil {
			st.Close()
		}
		t.Errorf("an empty file is not a store to read: %v", err)
	}
	if info, _ := os.Stat(empty); info.Size() != 0 {
		t.Error("a read-only open wrote a schema into an empty file")
	}
}
