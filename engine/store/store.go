package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	// The pure-Go SQLite driver, registered as "sqlite".
	_ "modernc.org/sqlite"
)

// A Store is an open session store file. It is safe for concurrent use by
// the goroutines of one process.
type Store struct {
	path  string
	db    *sql.DB
	known *known
}

// Open opens the session store at path, creating the file and its schema
// when they do not exist, and moving a schema 1 file to schema 2. The file
// uses SQLite's default rollback journal (no WAL), so a store is a single
// file.
func Open(path string) (*Store, error) { return open(path, dsn(path), false) }

// OpenScratch opens a store as [Open] does, for a store its maker throws
// away once done (the harness's own, in a temporary directory): SQLite
// never syncs it to disk (synchronous=OFF) and keeps its rollback journal
// in memory. A crash may leave it corrupt, which does not matter for a file
// nobody keeps; closing it and opening it again still reads the file, so a
// resume through it is as real as through [Open]. Never use it for a store
// a user keeps.
func OpenScratch(path string) (*Store, error) {
	return open(path, dsn(path)+"&_pragma=synchronous(OFF)&_pragma=journal_mode(MEMORY)", false)
}

// OpenReadOnly opens an existing session store for reading: it never
// creates the file or its schema, nor migrates it, and any write through
// it fails. A file that is not a store of schema 1 or 2 is an error.
func OpenReadOnly(path string) (*Store, error) { return open(path, dsn(path), true) }

func open(path, source string, readOnly bool) (*Store, error) {
	if strings.TrimSpace(path) == "" {
		return nil, errors.New("store: open: empty path")
	}
	if readOnly {
		source += "&mode=ro"
	}
	db, err := sql.Open("sqlite", source)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// One connection serialises every operation of the process: a
	// transaction's read and write cannot interleave with another's, and
	// SQLite never answers "database is locked" to our own goroutines.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	check := migrate
	if readOnly {
		check = requireSchema
	}
	if err := check(context.Background(), db); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return &Store{path: path, db: db, known: newKnown()}, nil
}

// dsn builds a file: URI for path, so that any character of the path is
// taken literally, with the settings every connection needs: foreign keys
// on, and for a second Store on the same file a busy timeout and
// transactions that take the write lock when they begin (a transaction that
// reads and then writes could otherwise fail with "database is locked").
func dsn(path string) string {
	u := url.URL{Path: filepath.Clean(path)}
	return "file:" + u.EscapedPath() + "?_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)&_txlock=immediate"
}

// Path returns the file the store was opened from.
func (s *Store) Path() string { return s.path }

// Close closes the file. Resuming a session is closing the store and
// opening the file again.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close %s: %w", s.path, err)
	}
	return nil
}

// inTx runs fn in a transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}
