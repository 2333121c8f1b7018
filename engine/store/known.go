package store

import (
	"bytes"
	"context"
	"hash/maphash"
	"slices"
	"sync"

	"github.com/replaycheck/replaycheck/engine"
)

// A Store remembers, per session, what the file held when this Store last
// read or wrote it: each message's fingerprint and the config bytes, and
// SQLite's PRAGMA data_version, read inside that transaction. Saving a
// session that matches, while no other connection has changed the file
// since, touches nothing: no encoding, no transaction, no read of the
// stored history. Saving one that only adds messages encodes and inserts
// only those.

// knownState is what a Store last read or wrote of one session.
type knownState struct {
	fps     []uint64
	config  []byte
	version int64
}

// known is a Store's memory of its sessions.
type known struct {
	mu       sync.Mutex
	seed     maphash.Seed
	sessions map[string]knownState
}

func newKnown() *known {
	return &known{seed: maphash.MakeSeed(), sessions: map[string]knownState{}}
}

// fingerprints returns the fingerprint of every message, computed on all
// processors.
func (k *known) fingerprints(msgs []engine.Message) []uint64 {
	out := make([]uint64, len(msgs))
	forEach(len(msgs), func(lo, hi int) (int, error) {
		var f fingerprinter
		f.h.SetSeed(k.seed)
		for i := lo; i < hi; i++ {
			out[i] = f.message(&msgs[i])
		}
		return hi, nil
	})
	return out
}

// lookup returns what the Store remembers of a session.
func (k *known) lookup(id string) (knownState, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	st, ok := k.sessions[id]
	return st, ok
}

// extends reports whether fps starts with the remembered messages.
func (st knownState) extends(fps []uint64) bool {
	return len(st.fps) <= len(fps) && slices.Equal(st.fps, fps[:len(st.fps)])
}

// dataVersion is SQLite's counter of changes other connections committed.
func dataVersion(ctx context.Context, q querier) (int64, error) {
	var v int64
	err := q.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v)
	return v, err
}

// remember records a session as the file holds it at data version v.
func (s *Store) remember(id string, fps []uint64, config []byte, v int64) {
	st := knownState{fps: fps, config: bytes.Clone(config), version: v}
	s.known.mu.Lock()
	s.known.sessions[id] = st
	s.known.mu.Unlock()
}

// forget drops what the Store remembers of a session.
func (s *Store) forget(id string) {
	s.known.mu.Lock()
	delete(s.known.sessions, id)
	s.known.mu.Unlock()
}

// unchanged reports whether the file holds exactly messages of these
// fingerprints and this config for the session, as far as this Store
// knows, and nobody else has written the file since.
func (s *Store) unchanged(ctx context.Context, id string, fps []uint64, config []byte) bool {
	st, ok := s.known.lookup(id)
	if !ok || len(st.fps) != len(fps) || !st.extends(fps) || !bytes.Equal(st.config, config) {
		return false
	}
	v, err := dataVersion(ctx, s.db)
	return err == nil && v == st.version
}
