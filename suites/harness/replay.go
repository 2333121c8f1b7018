package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"

	"github.com/replaycheck/replaycheck/internal/jsondiff"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
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
	// Unjudged says why the profile's simulator did not answer it either,
	// "" when there was no simulator to ask.
	Unjudged string
}

// Explain renders the miss for people.
func (m Miss) Explain() string {
	var s string
	if m.Nearest < 0 {
		s = fmt.Sprintf("no recorded interaction for %s %s", m.Method, m.Path)
	} else {
		s = fmt.Sprintf("nearest recorded interaction is %d; request differs at:\n%s", m.Nearest, jsondiff.Format(m.Diff))
	}
	if m.Unjudged != "" {
		s += "\n" + m.Unjudged
	}
	return s
}

// A Replay is a replay-only HTTP transport over one cassette: go-vcr's
// cassette replay with replayable interactions, recorded latency skipped,
// matching on method + URL path + canonical JSON body (authorization and
// every other header ignored). It never reaches the network.
//
// It does what go-vcr's recorder does in replay-only mode (find the
// interaction with the cassette's matcher, answer with its recorded
// response) without the recorder, because the recorder loads the file
// itself: the cassette is parsed once, by [Read], which also validates it.
type Replay struct {
	Path string
	File *File
	// Matching widens matching beyond exact (see [Matching]); nil is strict
	// replay.
	Matching *Matching

	vcr   *cassette.Cassette
	canon map[string][]byte // recorded body → canonical form

	mu     sync.Mutex
	misses []Miss
	used   []bool
	last   int // index of the last interaction served, -1 before any

	norm     map[int][]byte // interaction → body with the declared differences out
	loosened []LooseMatch
	judged   []Judgement
}

type canonKey struct{}

// OpenReplay loads a cassette for replay.
func OpenReplay(path string) (*Replay, error) {
	f, canon, err := load(path)
	if err != nil {
		return nil, err
	}
	return newReplay(path, f, canon), nil
}

// load parses the cassette at path and the canonical form of each
// recorded request body.
func load(path string) (*File, map[string][]byte, error) {
	f, err := Read(path)
	if err != nil {
		return nil, nil, err
	}
	canon := map[string][]byte{}
	for i, it := range f.Interactions {
		if len(bytes.TrimSpace([]byte(it.Request.Body))) == 0 {
			continue
		}
		// Every dialect sends JSON: a recorded body that is not JSON could
		// never match, so it is a corrupt cassette, not an unverified cell.
		c, err := jsondiff.Canonical([]byte(it.Request.Body))
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: interaction %d: request body: %w", path, lineOf(path, i), i, err)
		}
		canon[it.Request.Body] = c
	}
	return f, canon, nil
}

// newReplay is a replay of a parsed cassette; canon is only read.
func newReplay(path string, f *File, canon map[string][]byte) *Replay {
	r := &Replay{Path: path, File: f, canon: canon, used: make([]bool, len(f.Interactions)), last: -1}
	r.vcr = cassette.New(strings.TrimSuffix(path, ".yaml"))
	r.vcr.Interactions, r.vcr.IsNew = f.Interactions, false
	r.vcr.Matcher, r.vcr.ReplayableInteractions = r.match, true
	return r
}

// lineOf returns the YAML line of the i-th interaction of the cassette at
// path, reading it again: only error paths call it.
func lineOf(path string, i int) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 1
	}
	return interactionLine(b, i)
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

// RequestBody reads and closes req's body; a request without one has an
// empty body.
func RequestBody(req *http.Request) ([]byte, error) {
	if req.Body == nil {
		return nil, nil
	}
	defer req.Body.Close()
	return io.ReadAll(req.Body)
}

// RoundTrip answers a request from the cassette.
func (r *Replay) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := RequestBody(req)
	if err != nil {
		return nil, err
	}
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	c, err := canonical(body)
	if err != nil {
		return nil, err
	}
	req = req.Clone(context.WithValue(req.Context(), canonKey{}, c))
	req.Body = io.NopCloser(bytes.NewReader(body))
	it, err := r.vcr.GetInteraction(req)
	if errors.Is(err, cassette.ErrInteractionNotFound) {
		if i, diffs := r.loose(req.Method, req.URL.Path, body); i >= 0 {
			it = r.File.Interactions[i]
			r.mu.Lock()
			r.used[i], r.last = true, i
			r.loosened = append(r.loosened, LooseMatch{Interaction: i, Differences: diffs})
			r.mu.Unlock()
			return it.GetHTTPResponse()
		}
		resp, why, ok := r.judge(req, body)
		if ok {
			return resp, nil
		}
		m := r.nearest(req.Method, req.URL.Path, body)
		m.Unjudged = why
		r.mu.Lock()
		r.misses = append(r.misses, m)
		r.mu.Unlock()
		return nil, fmt.Errorf("%s: %s %s: %w", r.Path, req.Method, req.URL.Path, ErrNoMatch)
	}
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.used[it.ID], r.last = true, it.ID
	r.mu.Unlock()
	return it.GetHTTPResponse()
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
// to ask "what did the provider say to this other variant?"): an exact
// match, or one up to the declared differences of [Replay.Matching]. It
// never asks the fallback simulator: the question is what was recorded.
func (r *Replay) Lookup(method, path string, body []byte) (*cassette.Interaction, bool) {
	c, err := canonical(body)
	if err != nil {
		return nil, false
	}
	if i := r.index(method, path, c); i >= 0 {
		return r.File.Interactions[i], true
	}
	if i, _ := r.loose(method, path, body); i >= 0 {
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

// LastServed returns the index of the last interaction answered, or -1.
func (r *Replay) LastServed() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// Close ends the replay. A replay holds no file or connection, so it never
// fails; it exists so callers release a replay like any transport.
func (r *Replay) Close() error { return nil }
