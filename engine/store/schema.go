package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// schemaVersion is the PRAGMA user_version of the current schema.
const schemaVersion = 2

// pageSize is the page size of a file this build creates (and of a file it
// migrates): the largest SQLite has, so that a message body of tens of
// kilobytes spans one or two pages, not a chain of ten 4 KiB overflow pages
// each read and written by its own system call.
const pageSize = 65536

// messagesTable is the messages table of schema 2: an ordinary rowid
// table with an index on (session_id, seq). Schema 1 declared it WITHOUT
// ROWID, which keeps rows inside the index b-tree, where bodies of tens of
// kilobytes make every insert move large cells between pages.
const messagesTable = `(
	session_id TEXT    NOT NULL REFERENCES sessions(id),
	seq        INTEGER NOT NULL,
	role       TEXT    NOT NULL,
	body       BLOB    NOT NULL,
	PRIMARY KEY (session_id, seq)
)`

// schema creates the tables. Bodies are BLOBs so that stored JSON keeps its
// bytes exactly; role is copied out of the body so that turns can be counted
// without decoding messages.
const schema = `
CREATE TABLE sessions (
	id     TEXT PRIMARY KEY NOT NULL,
	config BLOB NOT NULL
);
CREATE TABLE messages ` + messagesTable + `;
PRAGMA user_version = 2;
`

// migrate creates the schema in an empty file, moves a schema 1 file to
// schema 2 (see [migrateV1]), and refuses a file written by a newer schema,
// or another program's database: a file without our schema version that
// already holds tables is never written to.
func migrate(ctx context.Context, db *sql.DB) error {
	v, err := checkVersion(ctx, db)
	if err != nil || v == schemaVersion {
		return err
	}
	if v == 0 {
		// The page size of a file is set before its first table.
		if _, err := db.ExecContext(ctx, fmt.Sprintf("PRAGMA page_size = %d", pageSize)); err != nil {
			return err
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Another process may have done it while this one waited for the lock.
	if v, err = checkVersion(ctx, tx); err != nil || v == schemaVersion {
		return err
	}
	switch v {
	case 0:
		if _, err := tx.ExecContext(ctx, schema); err != nil {
			return fmt.Errorf("create schema: %w", err)
		}
		return tx.Commit()
	default: // 1
		return migrateV1(ctx, db, tx)
	}
}

// migrateV1 moves a schema 1 file to schema 2 in one transaction: the
// messages are copied into a rowid table that takes the old one's name, so
// a crash leaves either the old file or the new one, never a mix. Then the
// file is rebuilt with [pageSize] pages (VACUUM, atomic as well); a store
// whose rebuild fails is still a correct schema 2 store with its old pages.
func migrateV1(ctx context.Context, db *sql.DB, tx *sql.Tx) error {
	steps := []string{
		"CREATE TABLE messages_v2 " + messagesTable,
		"INSERT INTO messages_v2 (session_id, seq, role, body) SELECT session_id, seq, role, body FROM messages ORDER BY session_id, seq",
		"DROP TABLE messages",
		"ALTER TABLE messages_v2 RENAME TO messages",
		"PRAGMA user_version = 2",
	}
	for _, q := range steps {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("migrate schema 1 to 2: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate schema 1 to 2: %w", err)
	}
	if _, err := db.ExecContext(ctx, fmt.Sprintf("PRAGMA page_size = %d; VACUUM", pageSize)); err != nil {
		return fmt.Errorf("migrate schema 1 to 2: rebuild with %d-byte pages: %w", pageSize, err)
	}
	return nil
}

// querier is what [checkVersion] reads through: the database or a
// transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// checkVersion returns the file's schema version: ours, 1 (which this
// build reads and migrates), or 0 for a file with no table at all.
// Anything else is an error naming what was found.
func checkVersion(ctx context.Context, db querier) (int, error) {
	var v int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, err
	}
	switch {
	case v == schemaVersion, v == 1:
		return v, nil
	case v > schemaVersion:
		return 0, fmt.Errorf("schema version %d is newer than this build's %d", v, schemaVersion)
	case v != 0:
		return 0, fmt.Errorf("not a replaycheck session store (schema version %d)", v)
	}
	rows, err := db.QueryContext(ctx, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return 0, err
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if len(tables) > 0 {
		return 0, fmt.Errorf("not a replaycheck session store: another program's database (tables %s, no schema version); it is left untouched", strings.Join(tables, ", "))
	}
	return 0, nil
}

// requireSchema refuses a file that does not hold a schema this build
// reads (an empty file included): read-only opens never create or migrate
// it. Schema 1 has the tables and columns of schema 2, so it reads as is.
func requireSchema(ctx context.Context, db *sql.DB) error {
	v, err := checkVersion(ctx, db)
	if err == nil && v == 0 {
		err = fmt.Errorf("not a replaycheck session store (no schema)")
	}
	return err
}
