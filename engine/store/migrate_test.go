package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/replaycheck/replaycheck/engine"
)

// schemaV1 is the schema this store wrote before version 2, verbatim.
const schemaV1 = `
CREATE TABLE sessions (
	id     TEXT PRIMARY KEY NOT NULL,
	config BLOB NOT NULL
);
CREATE TABLE messages (
	session_id TEXT    NOT NULL REFERENCES sessions(id),
	seq        INTEGER NOT NULL,
	role       TEXT    NOT NULL,
	body       BLOB    NOT NULL,
	PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
PRAGMA user_version = 1;
`

// v1Sessions are what the schema 1 fixture holds: carriers of every kind,
// bodies that span overflow pages, and an empty session.
func v1Sessions() []*engine.Session {
	return []*engine.Session{richSession("rich"), longSession("long", 40, 6000), {ID: "empty"}}
}

// v1Store writes a schema 1 file of sessions as the store of that schema
// did (4 KiB pages, WITHOUT ROWID), then runs extra SQL on it.
func v1Store(t *testing.T, sessions []*engine.Session, extra string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "v1.db")
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(schemaV1); err != nil {
		t.Fatal(err)
	}
	for _, s := range sessions {
		if _, err := db.Exec("INSERT INTO sessions (id, config) VALUES (?, ?)", s.ID, mustConfig(t, s)); err != nil {
			t.Fatal(err)
		}
		for i, m := range s.Messages {
			body, err := m.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec("INSERT INTO messages VALUES (?, ?, ?, ?)", s.ID, i, m.Role, body); err != nil {
				t.Fatal(err)
			}
		}
	}
	if extra != "" {
		if _, err := db.Exec(extra); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// layout is what tells the schemas apart in a file.
type layout struct {
	version, pageSize int
	messagesSQL       string
}

func fileLayout(t *testing.T, path string) layout {
	t.Helper()
	db, err := sql.Open("sqlite", dsn(path)+"&mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var l layout
	if err := db.QueryRow("PRAGMA user_version").Scan(&l.version); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("PRAGMA page_size").Scan(&l.pageSize); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("SELECT sql FROM sqlite_master WHERE name = 'messages'").Scan(&l.messagesSQL); err != nil {
		t.Fatal(err)
	}
	return l
}

func TestNewFileLayout(t *testing.T) {
	st, path := openTemp(t)
	st.Close()
	l := fileLayout(t, path)
	if l.version != schemaVersion || l.pageSize != pageSize || strings.Contains(l.messagesSQL, "WITHOUT ROWID") {
		t.Errorf("a new store has schema %d, %d-byte pages, messages %s", l.version, l.pageSize, l.messagesSQL)
	}
}

// TestMigrateV1: opening a schema 1 file moves it to schema 2 (a rowid
// messages table, 64 KiB pages), and every session reads back and
// shapes as before; the store then works as a new one.
func TestMigrateV1(t *testing.T) {
	ctx := context.Background()
	path := v1Store(t, v1Sessions(), "")
	if l := fileLayout(t, path); l.version != 1 || l.pageSize != 4096 || !strings.Contains(l.messagesSQL, "WITHOUT ROWID") {
		t.Fatalf("the fixture is not a schema 1 file: %+v", l)
	}
	st, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if l := fileLayout(t, path); l.version != 2 || l.pageSize != pageSize || strings.Contains(l.messagesSQL, "WITHOUT ROWID") {
		t.Fatalf("after migration: %+v", l)
	}
	for _, want := range v1Sessions() {
		got, err := st.Load(ctx, want.ID)
		if err != nil {
			t.Fatal(err)
		}
		assertReplaysLike(t, want, got)
		if !cmp.Equal(want.Config, got.Config) {
			t.Errorf("%s: model config differs: %s", want.ID, cmp.Diff(want.Config, got.Config))
		}
	}
	list, err := st.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantList := []Summary{{ID: "empty"}, {ID: "long", Turns: 10, Messages: 40}, {ID: "rich", Turns: 3, Messages: 9}}
	if diff := cmp.Diff(wantList, list); diff != "" {
		t.Errorf("List after migration (-want +got):\n%s", diff)
	}
	grown := richSession("rich")
	grown.Messages = append(grown.Messages, engine.Message{Role: "user", Content: raw(`"after the migration"`)})
	if err := st.Save(ctx, grown); err != nil {
		t.Fatal(err)
	}
	if err := st.Save(ctx, richSession("rich")); !errors.Is(err, ErrDiverged) {
		t.Errorf("a migrated store lost append-only: %v", err)
	}
	st.Close()
	again, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	got, err := again.Load(ctx, "rich")
	if err != nil {
		t.Fatal(err)
	}
	assertReplaysLike(t, grown, got)
}

// TestReadOnlyV1: a read-only open reads a schema 1 file as it is and
// never migrates it.
func TestReadOnlyV1(t *testing.T) {
	ctx := context.Background()
	path := v1Store(t, v1Sessions(), "")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ro, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	for _, want := range v1Sessions() {
		got, err := ro.Load(ctx, want.ID)
		if err != nil {
			t.Fatal(err)
		}
		assertReplaysLike(t, want, got)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("a read-only open changed a schema 1 file")
	}
}

// TestMigrateV1FailsWhole: a migration that fails halfway (here: a
// message row of a session that does not exist, which the schema 1
// store never wrote, refused by the foreign key when it is copied) rolls
// back: the file is the schema 1 file it was, and the error says so.
func TestMigrateV1FailsWhole(t *testing.T) {
	ctx := context.Background()
	path := v1Store(t, v1Sessions(), `PRAGMA foreign_keys = OFF; INSERT INTO messages VALUES ('ghost', 0, 'user', CAST('{"role":"user"}' AS BLOB))`)
	st, err := Open(path)
	if err == nil {
		st.Close()
		t.Fatal("migrating a file with an orphan message succeeded")
	}
	want := "store: open " + path + ": migrate schema 1 to 2: "
	if !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "FOREIGN KEY") {
		t.Errorf("error = %v, want prefix %q naming the foreign key", err, want)
	}
	if l := fileLayout(t, path); l.version != 1 || !strings.Contains(l.messagesSQL, "WITHOUT ROWID") {
		t.Errorf("a failed migration left %+v", l)
	}
	ro, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	got, err := ro.Load(ctx, "long")
	if err != nil {
		t.Fatal(err)
	}
	assertReplaysLike(t, longSession("long", 40, 6000), got)
	var tables int
	if err := ro.db.QueryRow("SELECT COUNT(*) FROM sqlite_master WHERE name = 'messages_v2'").Scan(&tables); err != nil || tables != 0 {
		t.Errorf("a failed migration left its new table behind (%d, %v)", tables, err)
	}
}
