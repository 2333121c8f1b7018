package main

import (
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/replaycheck/replaycheck/suites/harness"
)

// TestRecordNeedsAKey is the finding: a live recording without --key-env
// sent its requests unauthorised and kept the answers. Now it refuses to
// start (exit 2, nothing sent) unless --no-key says the endpoint takes
// none; --simulate needs no key.
func TestRecordNeedsAKey(t *testing.T) {
	t.Setenv("CI", "")
	t.Setenv("REPLAYCHECK_TEST_KEY", fakeKey)
	var mu sync.Mutex
	var seen []string
	e := newEndpoint(t, "deepseek", func(_ int, w http.ResponseWriter, r *http.Request, p http.Handler) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
		p.ServeHTTP(w, r)
	})
	// auth returns the Authorization headers seen since the last call.
	auth := func() []string {
		mu.Lock()
		defer mu.Unlock()
		a := seen
		seen = nil
		return a
	}
	refusals := []struct {
		reason string
		args   []string
		stderr string
	}{
		{"no key for a --base-url", []string{"--target", "deepseek", "--base-url", e.srv.URL},
			"--key-env VAR is required to record live: target deepseek sends to " + e.srv.URL + "; name the variable holding its API key, or pass --no-key if the endpoint takes none (--simulate needs no key)"},
		// ollama's own base URL is on loopback: even a broken check sends
		// nothing beyond this machine.
		{"no key for the target's own URL", []string{"--target", "ollama"},
			"--key-env VAR is required to record live: target ollama sends to http://127.0.0.1:11434/v1; name the variable"},
		{"--no-key and --key-env", []string{"--target", "deepseek", "--base-url", e.srv.URL, "--no-key", "--key-env", "REPLAYCHECK_TEST_KEY"},
			"--no-key and --key-env exclude each other"},
	}
	for _, tt := range refusals {
		t.Run(tt.reason, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"record", "--matrix", repoMatrix, "--providers", repoProviders, "--scenario", "carriers", "--out", out}, tt.args...)
			r := runMain(t, "", args...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tt.stderr) || !strings.Contains(r.stderr, "usage: replaycheck record") {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2, %q and the usage", r.code, r.stderr, tt.stderr)
			}
			if entries, _ := os.ReadDir(out); len(entries) > 0 || r.stdout != "" {
				t.Errorf("a refused recording wrote %d entries, stdout %q", len(entries), r.stdout)
			}
		})
	}
	if a := auth(); len(a) != 0 {
		t.Fatalf("a refused recording sent %d requests", len(a))
	}

	t.Run("--no-key records without credentials", func(t *testing.T) {
		out := t.TempDir()
		r := runMain(t, "", recordLive(out, e.srv.URL, "--no-key", "--scenario", "missing-echo")...)
		if r.code != 0 {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		if f, err := harness.Read(harness.Path(out, "deepseek", "missing-echo")); err != nil || f.Provenance.Kind != harness.Recorded {
			t.Errorf("cassette: %v", err)
		}
		a := auth()
		if len(a) == 0 {
			t.Fatal("no request reached the endpoint")
		}
		for i, a := range a {
			if a != "" {
				t.Errorf("request %d carried Authorization %q", i, a)
			}
		}
	})

	t.Run("--key-env records with the key", func(t *testing.T) {
		r := runMain(t, "", recordLive(t.TempDir(), e.srv.URL, "--key-env", "REPLAYCHECK_TEST_KEY", "--scenario", "missing-echo")...)
		if a := auth(); r.code != 0 || len(a) == 0 || a[0] != "Bearer "+fakeKey {
			t.Errorf("exit %d, Authorization %q\n%s", r.code, a, r.stderr)
		}
	})
}
