package main

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/replaycheck/replaycheck/sim"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// deepSeekAuthFailure is DeepSeek's answer to a bad key.
const deepSeekAuthFailure = `{"error":{"message":"Authentication Fails, Your api key: ****abcd is invalid","type":"authentication_error","param":null,"code":"invalid_request_error"}}`

// deepSeekCells are the cells of target deepseek, in the order record
// records them.
var deepSeekCells = []string{"carriers", "missing-echo", "fallback", "resume", "compaction", "branch"}

// An endpoint is a loopback stand-in for a live provider: answer decides
// the answer to the n-th request (from 1), given the simulator of the
// target's profile playing the provider (its header hidden: a live
// provider does not identify as a simulator).
type endpoint struct {
	srv    *httptest.Server
	mu     sync.Mutex
	n      int
	answer func(n int, w http.ResponseWriter, r *http.Request, provider http.Handler)
}

func newEndpoint(t *testing.T, profile string, answer func(n int, w http.ResponseWriter, r *http.Request, provider http.Handler)) *endpoint {
	t.Helper()
	provider := liveProvider(t, profile, "live")
	e := &endpoint{answer: answer}
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		e.n++
		n := e.n
		e.mu.Unlock()
		e.answer(n, w, r, provider)
	}))
	t.Cleanup(e.srv.Close)
	return e
}

// requests returns how many requests reached the endpoint.
func (e *endpoint) requests() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.n
}

// fixed answers every request with code and body.
func fixed(code int, body string) func(int, http.ResponseWriter, *http.Request, http.Handler) {
	return func(_ int, w http.ResponseWriter, _ *http.Request, _ http.Handler) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_, _ = w.Write([]byte(body))
	}
}

// goodCassettes records target deepseek's cassettes against the simulator
// into a fresh directory and returns it with each cassette's bytes.
func goodCassettes(t *testing.T) (string, map[string]string) {
	t.Helper()
	out := t.TempDir()
	r := runMain(t, "", "record", "--matrix", repoMatrix, "--providers", repoProviders,
		"--target", "deepseek", "--out", out, "--simulate", "--seed", "good")
	if r.code != 0 {
		t.Fatalf("recording the good cassettes: exit %d\n%s", r.code, r.stderr)
	}
	good := map[string]string{}
	for _, sc := range deepSeekCells {
		good[sc] = mustRead(t, harness.Path(out, "deepseek", sc))
	}
	return out, good
}

// recordLive are the arguments of a live recording of target deepseek
// at base into out.
func recordLive(out, base string, extra ...string) []string {
	return append([]string{"record", "--matrix", repoMatrix, "--providers", repoProviders,
		"--target", "deepseek", "--base-url", base, "--out", out}, extra...)
}

// liveProvider is a profile's simulator playing a live provider: its
// answers without the header that says they are simulated.
func liveProvider(t *testing.T, profile, seed string) http.Handler {
	t.Helper()
	_, profiles := loadRepo(t)
	s, err := sim.New(profiles[profile], sim.Options{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			if k != harness.SimulatorHeader {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}
