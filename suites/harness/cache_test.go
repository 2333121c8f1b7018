package harness

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestCacheParsesEachCassetteOnce: replays opened through a cache share one
// parse of the file (a change of the file after the first open is not
// seen), but not their state: each has its own interactions, which go-vcr
// marks as it serves them, and its own record of what it used. A cassette
// that fails to load fails alike on every open.
func TestCacheParsesEachCassetteOnce(t *testing.T) {
	b, err := os.ReadFile("../../cassettes/openai/carriers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "carriers.yaml")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var c Cache
	first, err := c.OpenReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("not: [a cassette"), 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := c.OpenReplay(path)
	if err != nil {
		t.Fatalf("the cached cassette was parsed again: %v", err)
	}
	if len(first.File.Interactions) == 0 || len(first.File.Interactions) != len(second.File.Interactions) {
		t.Fatalf("replays of %d and %d interactions, want the same parse", len(first.File.Interactions), len(second.File.Interactions))
	}
	for i := range first.File.Interactions {
		if first.File.Interactions[i] == second.File.Interactions[i] {
			t.Errorf("interaction %d is shared by two replays", i)
		}
		if second.vcr.Interactions[i] != second.File.Interactions[i] {
			t.Errorf("interaction %d: go-vcr replays another copy than the replay's own", i)
		}
	}
	if _, ok := first.Lookup("POST", "/v1/chat/completions", []byte(first.File.Interactions[0].Request.Body)); !ok {
		t.Fatal("the first replay does not answer its own first request")
	}
	if len(second.Unused()) != len(second.File.Interactions) {
		t.Errorf("a fresh replay from the cache has %d of %d interactions unused", len(second.Unused()), len(second.File.Interactions))
	}

	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("not: [a cassette"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err1 := c.OpenReplay(bad)
	_, err2 := c.OpenReplay(bad)
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
		t.Errorf("a bad cassette opened twice: %v, then %v; want the same error", err1, err2)
	}
	if _, err := c.OpenReplay(filepath.Join(dir, "missing.yaml")); !errors.Is(err, ErrNoCassette) {
		t.Errorf("a missing cassette: %v, want ErrNoCassette", err)
	}
}

// TestCacheConcurrentReplays: replays opened and served at once from one
// cache do not share state: go-vcr marks each served interaction, and
// each replay has its own (go test -race sees a shared one).
func TestCacheConcurrentReplays(t *testing.T) {
	var c Cache
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := c.OpenReplay("../../cassettes/openai/carriers.yaml")
			if err != nil {
				t.Error(err)
				return
			}
			it := r.File.Interactions[0]
			req, err := http.NewRequest(it.Request.Method, it.Request.URL, strings.NewReader(it.Request.Body))
			if err != nil {
				t.Error(err)
				return
			}
			res, err := r.RoundTrip(req)
			if err != nil {
				t.Errorf("a replay does not answer its own first request: %v", err)
				return
			}
			res.Body.Close()
		}()
	}
	wg.Wait()
}
