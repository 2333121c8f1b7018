package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/replaycheck/replaycheck/internal/jsondiff"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/dnaeon/go-vcr.v3/recorder"
)

// ErrNoMatch is returned by a replay transport for a request that matches
// no recorded interaction.
var ErrNoMatch = errors.New("no recorded interaction matches")

// A Miss is a request that matched nothing, with the nearest recorded
// interaction and how it differs.
type Miss struct {
	Method, Path string
	Body         []byte
	// Nearest is the index of the nearest recorded interaction on the same
	// method and path, or -1 when there is none.
	Nearest int
	Diff    []jsondiff.Difference
}

// Explain renders the miss for people.
func (m Miss) Explain() string {
	if m.Nearest < 0 {
		return fmt.Sprintf("no recorded interaction for %s %s", m.Method, m.Path)
	}
	return fmt.Sprintf("nearest recorded interaction is %d; request differs at:\n%s", m.Nearest, jsondiff.Format(m.Diff))
}

// A Replay is a replay-only HTTP transport over one cassette: the go-vcr
// recorder in replay-only mode, recorded latency skipped, matching on
// method + URL path + canonical JSON body (authorization and every other
// header ignored). It never reaches the network.
type Replay struct {
	Path string
	File *File

	rec   *recorder.Recorder
	canon map[string][]byte // recorded body → canonical form

	mu     sync.Mutex
	misses []Miss
	used   []bool
}

type canonKey struct{}

// OpenReplay loads a cassette for replay.
func OpenReplay(path string) (*Replay, error) {
	f, err := Read(path)
	if err != nil {
		return nil, err
	}
	r := &Replay{Path: path, File: f, canon: map[string][]byte{}, used: make([]bool, len(f.Interactions))}
	for i, it := range f.Interactions {
		c, err := canonical([]byte(it.Request.Body))
		if err != nil {
			return nil, fmt.Errorf("%s: interaction %d: request body: %w", path, i, err)
		}
		r.canon[it.Request.Body] = c
	}
	rec, err := recorder.NewWithOptions(&recorder.Options{
		CassetteName:       strings.TrimSuffix(path, ".yaml"),
		Mode:               recorder.ModeReplayOnly,
		SkipRequestLatency: true,
		RealTransport:      refuseNetwork{},
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rec.SetMatcher(r.match)
	rec.SetReplayableInteractions(true)
	r.rec = rec
	return r, nil
}

// canonical returns the canonical JSON of a body, or the body itself when
// it is not JSON (such bodies are then compared byte for byte).
func canonical(b []byte) ([]byte, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	c, err := jsondiff.Canonical(b)
	if err != nil {
		return b, nil
	}
	return c, nil
}

func (r *Replay) match(req *http.Request, rec cassette.Request) bool {
	if req.Method != rec.Method {
		return false
	}
	u, err := url.Parse(rec.URL)
	if err != nil || u.Path != req.URL.Path {
		return false
	}
	got, _ := req.Context().Value(canonKey{}).([]byte)
	return bytes.Equal(got, r.canon[rec.Body])
}

// RoundTrip answers a request from the cassette.
func (r *Replay) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
	}
	c, err := canonical(body)
	if err != nil {
		return nil, err
	}
	if i := r.index(req.Method, req.URL.Path, c); i >= 0 {
		r.mu.Lock()
		r.used[i] = true
		r.mu.Unlock()
	}
	req = req.Clone(context.WithValue(req.Context(), canonKey{}, c))
	req.Body = io.NopCloser(bytes.NewReader(body))
	resp, err := r.rec.RoundTrip(req)
	if errors.Is(err, cassette.ErrInteractionNotFound) {
		m := r.nearest(req.Method, req.URL.Path, body)
		r.mu.Lock()
		r.misses = append(r.misses, m)
		r.mu.Unlock()
		return nil, fmt.Errorf("%s: %s %s: %w", r.Path, req.Method, req.URL.Path, ErrNoMatch)
	}
	return resp, err
}

// index returns the first interaction matching method, path and canonical
// body, or -1.
func (r *Replay) index(method, path string, c []byte) int {
	for i, it := range r.File.Interactions {
		u, err := url.Parse(it.Request.URL)
		if it.Request.Method == method && err == nil && u.Path == path && bytes.Equal(r.canon[it.Request.Body], c) {
			return i
		}
	}
	return -1
}

// Lookup finds the recorded answer to a request without replaying it (used
// to ask "what did the provider say to this other variant?").
func (r *Replay) Lookup(method, path string, body []byte) (*cassette.Interaction, bool) {
	c, err := canonical(body)
	if err != nil {
		return nil, false
	}
	if i := r.index(method, path, c); i >= 0 {
		return r.File.Interactions[i], true
	}
	return nil, false
}

func (r *Replay) nearest(method, path string, body []byte) Miss {
	m := Miss{Method: method, Path: path, Body: body, Nearest: -1}
	best := -1
	for i, it := range r.File.Interactions {
		u, err := url.Parse(it.Request.URL)
		if it.Request.Method != method || err != nil || u.Path != path {
			continue
		}
		d, err := jsondiff.Distance([]byte(it.Request.Body), body)
		if err != nil {
			continue
		}
		if best < 0 || d < best {
			best, m.Nearest = d, i
		}
	}
	if m.Nearest >= 0 {
		m.Diff, _ = jsondiff.Diff([]byte(r.File.Interactions[m.Nearest].Request.Body), body)
	}
	return m
}

// Misses returns the requests that matched nothing, in order.
func (r *Replay) Misses() []Miss {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Miss(nil), r.misses...)
}

// Unused returns the indexes of interactions no request used.
func (r *Replay) Unused() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []int
	for i, u := range r.used {
		if !u {
			out = append(out, i)
		}
	}
	return out
}

// Close releases the recorder.
func (r *Replay) Close() error { return r.rec.Stop() }

// refuseNetwork is the real transport of a replay: it never connects.
type refuseNetwork struct{}

func (refuseNetwork) RoundTrip(req *http.Request) (*http.Response, error) {
	return nil, fmt.Errorf("replay: refusing to reach %s: replay never uses the network", req.URL.Host)
}
