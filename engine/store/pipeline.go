package store

import (
	"context"
	"database/sql"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/replaycheck/replaycheck/engine"
)

// An encoding is the storage JSON of a session's messages being written
// by workers on the other processors, chunk by chunk in order, while the
// caller inserts the ones already done into SQLite.
type encoding struct {
	id      string
	first   int
	msgs    []engine.Message
	bodies  [][]byte
	errs    []error
	done    []chan struct{}
	next    atomic.Int64
	stopped atomic.Bool
	wg      sync.WaitGroup
}

// startEncoding starts encoding msgs, the messages of session id from
// index first on. Call stop when done with it.
func startEncoding(id string, first int, msgs []engine.Message) *encoding {
	n := (len(msgs) + chunk - 1) / chunk
	e := &encoding{id: id, first: first, msgs: msgs, bodies: make([][]byte, len(msgs)), errs: make([]error, n), done: make([]chan struct{}, n)}
	for c := range e.done {
		e.done[c] = make(chan struct{})
	}
	for range min(runtime.GOMAXPROCS(0), n) {
		e.wg.Go(e.work)
	}
	return e
}

func (e *encoding) work() {
	for !e.stopped.Load() {
		c := int(e.next.Add(1)) - 1
		if c >= len(e.done) {
			return
		}
		for i := c * chunk; i < min((c+1)*chunk, len(e.msgs)); i++ {
			b, err := e.msgs[i].MarshalJSON()
			if err != nil {
				e.errs[c] = fmt.Errorf("message %d: %w", e.first+i, err)
				break
			}
			e.bodies[i] = b
		}
		close(e.done[c])
	}
}

// body returns the storage JSON of message i, waiting for it.
func (e *encoding) body(i int) ([]byte, error) {
	c := i / chunk
	<-e.done[c]
	if e.errs[c] != nil {
		return nil, e.errs[c]
	}
	return e.bodies[i], nil
}

// from gives the bodies of insertMessages from message n on.
func (e *encoding) from(n int) func(i int) ([]byte, error) {
	return func(i int) ([]byte, error) { return e.body(n + i) }
}

// stop ends the encoding and waits for its workers.
func (e *encoding) stop() {
	e.stopped.Store(true)
	e.wg.Wait()
}

// A batch is consecutive stored rows, decoded by a worker of
// [readMessages].
type batch struct {
	first  int
	bodies [][]byte
	msgs   []engine.Message
	fps    []uint64
	err    error
}

// readMessages reads a session's message rows in one query and decodes
// them on the other processors as they arrive, each once, with their
// fingerprints. A gap in the sequence, or a row that does not read, is the
// error even when a row before it does not decode (as when every row is
// read before any is decoded); otherwise the error is the one of the
// lowest index.
func (s *Store) readMessages(ctx context.Context, tx *sql.Tx, id string) ([]engine.Message, []uint64, error) {
	work := make(chan *batch, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var f fingerprinter
			f.h.SetSeed(s.known.seed)
			for b := range work {
				b.decode(&f)
			}
		})
	}
	batches, readErr := sendRows(ctx, tx, id, work)
	close(work)
	wg.Wait()
	if readErr != nil {
		return nil, nil, readErr
	}
	var msgs []engine.Message
	var fps []uint64
	for _, b := range batches {
		if b.err != nil {
			return nil, nil, b.err
		}
		msgs = append(msgs, b.msgs...)
		fps = append(fps, b.fps...)
	}
	if msgs == nil {
		msgs = make([]engine.Message, 0)
	}
	return msgs, fps, nil
}

// sendRows reads the rows into batches and sends each to work when full.
func sendRows(ctx context.Context, tx *sql.Tx, id string, work chan<- *batch) ([]*batch, error) {
	rows, err := tx.QueryContext(ctx, "SELECT seq, body FROM messages WHERE session_id = ? ORDER BY seq", id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var batches []*batch
	cur := &batch{}
	for i := 0; rows.Next(); i++ {
		var seq int
		var body []byte
		if err := rows.Scan(&seq, &body); err != nil {
			return batches, fmt.Errorf("message %d: %w", i, err)
		}
		if seq != i {
			return batches, fmt.Errorf("message %d: sequence has a gap (next stored is %d)", i, seq)
		}
		cur.bodies = append(cur.bodies, body)
		if len(cur.bodies) == chunk {
			batches = append(batches, cur)
			work <- cur
			cur = &batch{first: i + 1}
		}
	}
	if len(cur.bodies) > 0 {
		batches = append(batches, cur)
		work <- cur
	}
	return batches, rows.Err()
}

// decode parses the batch's bodies, stopping at the first that fails.
func (b *batch) decode(f *fingerprinter) {
	b.msgs = make([]engine.Message, len(b.bodies))
	b.fps = make([]uint64, len(b.bodies))
	for j, body := range b.bodies {
		m, err := engine.ParseMessage(body)
		if err == nil && m.Role == "" {
			err = fmt.Errorf("missing role")
		}
		if err != nil {
			b.err = fmt.Errorf("message %d: %w", b.first+j, err)
			return
		}
		b.msgs[j] = m
		b.fps[j] = f.message(&b.msgs[j])
	}
	b.bodies = nil
}
