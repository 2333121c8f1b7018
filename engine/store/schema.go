package store

import (
	"context"
	"database/sql"
	"fmt"
)

// schemaVersion is the PRAGMA user_version of the current schema.
const schemaVersion = 1

// schema creates the tables. Bodies are BLOBs so that stored JSON keeps its
// bytes exactly; role is copied out of the body so that turns can be counted
// without decoding messages.
const schema = `
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

// migrate creates the schema in an empty file and refuses a file written by
// a newer schema.
func migrate(ctx context.Context, db *sql.DB) error {
	var v int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	switch {
	case v == schemaVersion:
		return nil
	case v > schemaVersion:
		return fmt.Errorf("schema version %d is newer than this build's %d", v, schemaVersion)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	return tx.Commit()
}
