package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
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
// a newer schema, or another program's database: a file without our schema
// version that already holds tables is never written to.
func migrate(ctx context.Context, db *sql.DB) error {
	v, err := checkVersion(ctx, db)
	if err != nil || v == schemaVersion {
		return err
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

// checkVersion returns the file's schema version: ours, or 0 for a file
// with no table at all. Anything else is an error naming what was found.
func checkVersion(ctx context.Context, db *sql.DB) (int, error) {
	var v int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, err
	}
	switch {
	case v == schemaVersion:
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

// requireSchema refuses a file that does not hold this build's schema
// (an empty file included): read-only opens never create it.
func requireSchema(ctx context.Context, db *sql.DB) error {
	v, err := checkVersion(ctx, db)
	if err == nil && v != schemaVersion {
		err = fmt.Errorf("not a replaycheck session store (no schema)")
	}
	return err
}
