package store

import (
	"bytes"
	"context"
	"hash/maphash"
	"sync"
)

// A Store remembers, per session, what the file held when this Store last
// read or wrote it: the messages' digest and the config bytes. Saving a
// session that matches, while no other connection has changed the file
// since (SQLite's PRAGMA data_version), touches nothing: no transaction,
// no read of the stored history.

// knownState is what a Store last read or wrote of one session.
type knownState struct {
	digest  uint64
	n       int
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

// digest hashes message bodies, each with its length.
func (k *known) digest(bodies [][]byte) uint64 {
	var h maphash.Hash
	h.SetSeed(k.seed)
	var n [8]byte
	for _, b := range bodies {
		l := uint64(len(b))
		for i := range n {
			n[i] = byte(l >> (8 * i))
		}
		h.Write(n[:])
		h.Write(b)
	}
	return h.Sum64()
}

// dataVersion is SQLite's counter of changes other connections committed.
func (s *Store) dataVersion(ctx context.Context) (int64, error) {
	var v int64
	err := s.db.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v)
	return v, err
}

// remember records a session as the file holds it now.
func (s *Store) remember(ctx context.Context, id string, bodies [][]byte, config []byte) {
	v, err := s.dataVersion(ctx)
	if err != nil {
		s.forget(id)
		return
	}
	st := knownState{digest: s.known.digest(bodies), n: len(bodies), config: bytes.Clone(config), version: v}
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

// unchanged reports whether the file holds exactly these bodies and this
// config for the session, as far as this Store knows, and nobody else has
// written the file since.
func (s *Store) unchanged(ctx context.Context, id string, bodies [][]byte, config []byte) bool {
	s.known.mu.Lock()
	st, ok := s.known.sessions[id]
	s.known.mu.Unlock()
	if !ok || st.n != len(bodies) || !bytes.Equal(st.config, config) {
		return false
	}
	if v, err := s.dataVersion(ctx); err != nil || v != st.version {
		return false
	}
	return s.known.digest(bodies) == st.digest
}
