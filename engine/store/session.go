package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
)

// ErrNotFound is returned (wrapped) when a session id is not in the store.
var ErrNotFound = errors.New("no such session")

// ErrExists is returned (wrapped) by [Store.Create] when the id is taken.
var ErrExists = errors.New("session already exists")

// ErrDiverged is returned (wrapped) by [Store.Save] when the session's
// messages do not extend the stored history: history is append-only.
var ErrDiverged = errors.New("history is append-only")

// A Summary describes one stored session.
type Summary struct {
	// ID is the session id.
	ID string `json:"id"`
	// Turns is the number of user messages: each one opens a turn.
	Turns int `json:"turns"`
	// Messages is the number of stored messages.
	Messages int `json:"messages"`
}

// Create stores a new session with its messages and model config. The id
// is required and must not be stored yet.
func (s *Store) Create(ctx context.Context, sess *engine.Session) error {
	if sess == nil || strings.TrimSpace(sess.ID) == "" {
		return errors.New("store: create: session id is required")
	}
	id := sess.ID
	s.forget(id)
	bodies, err := encodeMessages(id, 0, sess.Messages)
	if err != nil {
		return err
	}
	cfg, err := encodeConfig(id, sess.Config)
	if err != nil {
		return err
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		ok, err := exists(ctx, tx, id)
		switch {
		case err != nil:
			return err
		case ok:
			return ErrExists
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO sessions (id, config) VALUES (?, ?)", id, cfg); err != nil {
			return err
		}
		return insertMessages(ctx, tx, id, 0, sess.Messages, fromSlice(bodies))
	})
	if err != nil {
		return fmt.Errorf("store: session %q: create: %w", id, err)
	}
	return nil
}

// Append adds messages at the end of a stored session's history.
func (s *Store) Append(ctx context.Context, id string, msgs ...engine.Message) error {
	s.forget(id)
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		ok, err := exists(ctx, tx, id)
		switch {
		case err != nil:
			return err
		case !ok:
			return ErrNotFound
		}
		n, err := count(ctx, tx, id)
		if err != nil {
			return err
		}
		bodies, err := encodeMessages(id, n, msgs)
		if err != nil {
			return err
		}
		return insertMessages(ctx, tx, id, n, msgs, fromSlice(bodies))
	})
	if err != nil {
		return wrapErr(id, "append", err)
	}
	return nil
}

// SaveConfig replaces a stored session's model config.
func (s *Store) SaveConfig(ctx context.Context, id string, cfg engine.ModelConfig) error {
	s.forget(id)
	b, err := encodeConfig(id, cfg)
	if err != nil {
		return err
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE sessions SET config = ? WHERE id = ?", b, id)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err == nil && n == 0 {
			err = ErrNotFound
		}
		return err
	})
	if err != nil {
		return wrapErr(id, "save config", err)
	}
	return nil
}

// Save upserts a whole session: it stores the model config and every
// message beyond those already stored, creating the session when it is
// new. Stored messages must be a prefix of sess.Messages, byte for byte in
// their storage JSON (a message this Store loaded and that is unchanged,
// field for field, counts as its stored row); otherwise Save refuses
// (history is append-only) and names the first index that differs.
//
// What this Store last saved or loaded of the session, while no other
// connection wrote the file, is known without reading it: saving it again
// unchanged does nothing but fingerprint the messages (no encoding, no
// transaction, no read), and saving it with messages added encodes and
// inserts only those.
func (s *Store) Save(ctx context.Context, sess *engine.Session) error {
	if sess == nil || strings.TrimSpace(sess.ID) == "" {
		return errors.New("store: save: session id is required")
	}
	id := sess.ID
	if err := checkRoles(id, 0, sess.Messages); err != nil {
		return err
	}
	cfg, err := encodeConfig(id, sess.Config)
	if err != nil {
		return err
	}
	fps := s.known.fingerprints(sess.Messages)
	if s.unchanged(ctx, id, fps, cfg) {
		return nil
	}
	if st, ok := s.known.lookup(id); ok && st.extends(fps) {
		done, err := s.saveTail(ctx, sess, st, fps, cfg)
		if err != nil {
			s.forget(id)
			return wrapErr(id, "save", err)
		}
		if done {
			return nil
		}
	}
	enc := startEncoding(id, 0, sess.Messages)
	defer enc.stop()
	var version int64
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx,
			"INSERT INTO sessions (id, config) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET config = excluded.config",
			id, cfg); err != nil {
			return err
		}
		stored, err := storedBodies(ctx, tx, id)
		if err != nil {
			return err
		}
		if len(stored) > len(sess.Messages) {
			return fmt.Errorf("%w: %d messages stored, session has %d", ErrDiverged, len(stored), len(sess.Messages))
		}
		for i, b := range stored {
			body, err := enc.body(i)
			if err != nil {
				return err
			}
			if !bytes.Equal(b, body) {
				return fmt.Errorf("message %d: %w: it differs from the stored message", i, ErrDiverged)
			}
		}
		n := len(stored)
		if err := insertMessages(ctx, tx, id, n, sess.Messages[n:], enc.from(n)); err != nil {
			return err
		}
		version, err = dataVersion(ctx, tx)
		return err
	})
	if err != nil {
		s.forget(id)
		return wrapErr(id, "save", err)
	}
	s.remember(id, fps, cfg, version)
	return nil
}

// saveTail stores a session that extends what this Store knows of it:
// the new config, if it changed, and the messages beyond st. It reports
// false, having written nothing, when the file is not as st says: another
// connection wrote it, or another goroutine of this Store appended.
func (s *Store) saveTail(ctx context.Context, sess *engine.Session, st knownState, fps []uint64, cfg []byte) (bool, error) {
	id, n := sess.ID, len(st.fps)
	tail := sess.Messages[n:]
	enc := startEncoding(id, n, tail)
	defer enc.stop()
	done := false
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		v, err := dataVersion(ctx, tx)
		if err != nil || v != st.version {
			return err
		}
		if stored, err := count(ctx, tx, id); err != nil || stored != n {
			return err
		}
		if !bytes.Equal(cfg, st.config) {
			if _, err := tx.ExecContext(ctx, "UPDATE sessions SET config = ? WHERE id = ?", cfg, id); err != nil {
				return err
			}
		}
		if err := insertMessages(ctx, tx, id, n, tail, enc.from(0)); err != nil {
			return err
		}
		done = true
		return nil
	})
	if err != nil || !done {
		return false, err
	}
	s.remember(id, fps, cfg, st.version)
	return true, nil
}

// Load reads a stored session. A message row that does not decode, or a
// gap in the sequence, is an error naming the session and the index. Rows
// are read in one query and decoded on all processors, each once.
func (s *Store) Load(ctx context.Context, id string) (*engine.Session, error) {
	sess := &engine.Session{ID: id}
	var cfg []byte
	var fps []uint64
	var version int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, "SELECT config FROM sessions WHERE id = ?", id).Scan(&cfg)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if err := json.Unmarshal(cfg, &sess.Config); err != nil {
			return fmt.Errorf("model config: %w", err)
		}
		if sess.Messages, fps, err = s.readMessages(ctx, tx, id); err != nil {
			return err
		}
		version, err = dataVersion(ctx, tx)
		return err
	})
	if err != nil {
		s.forget(id)
		return nil, wrapErr(id, "load", err)
	}
	s.remember(id, fps, cfg, version)
	return sess, nil
}

// List returns a summary of every stored session, sorted by id.
func (s *Store) List(ctx context.Context) ([]Summary, error) {
	var out []Summary
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `
			SELECT s.id, COUNT(m.seq), COALESCE(SUM(m.role = 'user'), 0)
			FROM sessions s LEFT JOIN messages m ON m.session_id = s.id
			GROUP BY s.id ORDER BY s.id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var sum Summary
			if err := rows.Scan(&sum.ID, &sum.Messages, &sum.Turns); err != nil {
				return err
			}
			out = append(out, sum)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("store: list: %w", err)
	}
	return out, nil
}

func wrapErr(id, op string, err error) error {
	return fmt.Errorf("store: session %q: %s: %w", id, op, err)
}

// checkRoles refuses a message without a role; first is the index of
// msgs[0] in the session, for error messages.
func checkRoles(id string, first int, msgs []engine.Message) error {
	for i := range msgs {
		if msgs[i].Role == "" {
			return fmt.Errorf("store: session %q: message %d: missing role", id, first+i)
		}
	}
	return nil
}

// encodeMessages returns the storage JSON of msgs, encoded on all
// processors; first is the index of msgs[0] in the session, for error
// messages.
func encodeMessages(id string, first int, msgs []engine.Message) ([][]byte, error) {
	if err := checkRoles(id, first, msgs); err != nil {
		return nil, err
	}
	out := make([][]byte, len(msgs))
	err := forEach(len(msgs), func(lo, hi int) (int, error) {
		for i := lo; i < hi; i++ {
			b, err := msgs[i].MarshalJSON()
			if err != nil {
				return i, fmt.Errorf("store: session %q: message %d: %w", id, first+i, err)
			}
			out[i] = b
		}
		return hi, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func encodeConfig(id string, cfg engine.ModelConfig) ([]byte, error) {
	b, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("store: session %q: model config: %w", id, err)
	}
	return b, nil
}

func exists(ctx context.Context, tx *sql.Tx, id string) (bool, error) {
	var one int
	err := tx.QueryRowContext(ctx, "SELECT 1 FROM sessions WHERE id = ?", id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

func count(ctx context.Context, tx *sql.Tx, id string) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM messages WHERE session_id = ?", id).Scan(&n)
	return n, err
}

func storedBodies(ctx context.Context, tx *sql.Tx, id string) ([][]byte, error) {
	rows, err := tx.QueryContext(ctx, "SELECT seq, body FROM messages WHERE session_id = ? ORDER BY seq", id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]byte
	for i := 0; rows.Next(); i++ {
		var seq int
		var body []byte
		if err := rows.Scan(&seq, &body); err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		if seq != i {
			return nil, fmt.Errorf("message %d: sequence has a gap (next stored is %d)", i, seq)
		}
		out = append(out, body)
	}
	return out, rows.Err()
}

// insertMessages inserts msgs as the messages from index first on, with
// the storage JSON body(i) gives for msgs[i].
func insertMessages(ctx context.Context, tx *sql.Tx, id string, first int, msgs []engine.Message, body func(i int) ([]byte, error)) error {
	if len(msgs) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, "INSERT INTO messages (session_id, seq, role, body) VALUES (?, ?, ?, ?)")
	if err != nil {
		return err
	}
	defer stmt.Close()
	for i := range msgs {
		b, err := body(i)
		if err != nil {
			return err
		}
		if _, err := stmt.ExecContext(ctx, id, first+i, msgs[i].Role, b); err != nil {
			return fmt.Errorf("message %d: %w", first+i, err)
		}
	}
	return nil
}

// fromSlice gives the bodies of insertMessages from a slice.
func fromSlice(bodies [][]byte) func(i int) ([]byte, error) {
	return func(i int) ([]byte, error) { return bodies[i], nil }
}
