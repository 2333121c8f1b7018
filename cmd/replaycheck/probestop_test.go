package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
)

// TestProbeStopsAtAnAnswerThatJudgesNoBody probes endpoints that answer
// every request with a status that is not the provider judging the body
// (a missing key, a wrong path, a rate limit, an outage): the probe stops
// at the first such answer, exits 3 and quotes the status and the
// provider's words, and draws no conclusion (no row, no cassette).
func TestProbeStopsAtAnAnswerThatJudgesNoBody(t *testing.T) {
	// probe refuses to run under CI without --force; this test is no live probe.
	t.Setenv("CI", "")
	tests := []struct {
		status int
		body   string
		hint   string
		reason string
	}{
		{401, `{"error":{"message":"Authentication Fails, Your api key: ****abcd is invalid","type":"authentication_error"}}`, "--key-env", "a missing or wrong key is not a strict schema"},
		{403, `{"error":{"message":"Your account is not allowed to use this model","type":"permission_error"}}`, "--key-env", "a key without access is not a strict schema"},
		{404, `{"error":{"message":"Not Found"}}`, "--base-url", "a wrong path is not a strict schema"},
		{429, `{"error":{"message":"Rate limit reached for requests","type":"rate_limit_error"}}`, "later", "a rate limit is not a strict schema"},
		{500, `{"error":{"message":"internal error"}}`, "later", "an outage is not a strict schema"},
		{503, `upstream connect error`, "later", "a gateway failure is not a strict schema"},
	}
	for _, tt := range tests {
		var hits atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(tt.status)
			_, _ = w.Write([]byte(tt.body))
		}))
		out := t.TempDir()
		r := runMain(t, "", "probe", "--provider", "acme", "--base-url", srv.URL+"/v1", "--model", "acme-reasoner",
			"--no-key", "--out", out, "--matrix", repoMatrix)
		srv.Close()
		if r.code != exitHarness {
			t.Errorf("%d: exit %d, want %d (harness error): %s\nstdout:\n%s\nstderr:\n%s", tt.status, r.code, exitHarness, tt.reason, r.stdout, r.stderr)
			continue
		}
		for _, want := range []string{fmt.Sprintf("answered %d %s", tt.status, http.StatusText(tt.status)), tt.body, tt.hint} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("%d: stderr lacks %q: %s\n%s", tt.status, want, tt.reason, r.stderr)
			}
		}
		if strings.Contains(r.stdout, "proposed") {
			t.Errorf("%d: a proposal was printed from an answer that judged no body:\n%s", tt.status, r.stdout)
		}
		if n := hits.Load(); n != 1 {
			t.Errorf("%d: %d requests sent, want the probe to stop at the first answer", tt.status, n)
		}
		if entries, _ := os.ReadDir(out); len(entries) != 0 {
			t.Errorf("%d: the probe wrote %d entries under --out from an answer that judged no body", tt.status, len(entries))
		}
	}
}

// TestProbeNeedsAKeyOrNoKey refuses to probe without a key unless --no-key
// says the endpoint takes none: a probe without a key against an endpoint
// that needs one learns nothing.
func TestProbeNeedsAKeyOrNoKey(t *testing.T) {
	// probe refuses to run under CI without --force; this test is no live probe.
	t.Setenv("CI", "")
	tests := []struct {
		args   []string
		stderr string
		reason string
	}{
		{nil, "--no-key", "no key and no --no-key"},
		{[]string{"--no-key", "--key-env", "ACME_KEY"}, "--no-key and --key-env", "a key and --no-key at once"},
	}
	for _, tt := range tests {
		args := append([]string{"probe", "--provider", "acme", "--base-url", "http://127.0.0.1:1/v1", "--model", "m", "--matrix", repoMatrix}, tt.args...)
		r := runMain(t, "", args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tt.stderr) {
			t.Errorf("%s: exit %d, stderr %q; want a usage error mentioning %q", tt.reason, r.code, r.stderr, tt.stderr)
		}
	}
}
