package harness

import (
	"sync"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// A Cache keeps cassettes parsed, by path, for a run that replays the same
// cassettes many times: mutate judges hundreds of route tables against
// one set. A replay it opens is the one [OpenReplay] gives, with state of
// its own over the shared parse. The files must not change while the
// cache is in use. Safe for concurrent use; the zero value is ready, and
// a nil Cache parses every time.
type Cache struct {
	mu sync.Mutex
	m  map[string]*parsed
}

// parsed is one cassette, loaded once.
type parsed struct {
	once  sync.Once
	f     *File
	canon map[string][]byte
	err   error
}

// OpenReplay opens the cassette at path for replay, parsing it on its
// first use only; a cassette that failed to load fails alike every time.
func (c *Cache) OpenReplay(path string) (*Replay, error) {
	if c == nil {
		return OpenReplay(path)
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*parsed{}
	}
	p := c.m[path]
	if p == nil {
		p = &parsed{}
		c.m[path] = p
	}
	c.mu.Unlock()
	p.once.Do(func() { p.f, p.canon, p.err = load(path) })
	if p.err != nil {
		return nil, p.err
	}
	// go-vcr marks the interactions it serves, so each replay gets its
	// own copies of them.
	f := *p.f
	f.Interactions = make([]*cassette.Interaction, len(p.f.Interactions))
	for i, it := range p.f.Interactions {
		own := *it
		f.Interactions[i] = &own
	}
	return newReplay(path, &f, p.canon), nil
}
