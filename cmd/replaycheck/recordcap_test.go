package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/suites/harness"
)

// TestRecordCapByDefault is the finding: record and probe had no request
// cap unless one was given. Now both default to the same cap, a live
// recording says its cap before it sends anything, and 0 is "no cap" in
// so many words.
func TestRecordCapByDefault(t *testing.T) {
	t.Setenv("CI", "")
	for _, cmd := range []string{"record", "probe"} {
		r := runMain(t, "", cmd, "--help")
		if r.code != 0 || !strings.Contains(r.stdout, "(0: no cap) (default 300)") {
			t.Errorf("%s --help: exit %d, want --max-requests defaulting to 300, 0 said to be no cap:\n%s", cmd, r.code, r.stdout)
		}
	}
	e := newEndpoint(t, "deepseek", func(_ int, w http.ResponseWriter, r *http.Request, p http.Handler) { p.ServeHTTP(w, r) })
	tests := []struct {
		reason string
		args   []string
		first  string
	}{
		{"the default cap", recordLive(t.TempDir(), e.srv.URL, "--no-key", "--scenario", "missing-echo"),
			"record: at most 300 requests (--max-requests)\n"},
		{"a cap given", recordLive(t.TempDir(), e.srv.URL, "--no-key", "--scenario", "missing-echo", "--max-requests", "50"),
			"record: at most 50 requests (--max-requests)\n"},
		{"no cap, asked for", recordLive(t.TempDir(), e.srv.URL, "--no-key", "--scenario", "missing-echo", "--max-requests", "0"),
			"record: no request cap (--max-requests 0)\n"},
		{"--simulate spends nothing: no cap unless given", recordArgs(t.TempDir(), "--simulate"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			r := runMain(t, "", tt.args...)
			if r.code != 0 || r.stderr != tt.first {
				t.Errorf("exit %d, stderr %q, want exit 0 and %q", r.code, r.stderr, tt.first)
			}
		})
	}
}

// TestRecordCapMessage is the finding: a run capped at 10 stopped with
// "(--max-requests 1)" (what was left of the cap for the cell) and the
// target's production URL instead of --base-url. The message quotes the
// cap as given and the URL the request would have gone to; the cells
// recorded before the cap are written, the rest are not, and the summary
// names them.
func TestRecordCapMessage(t *testing.T) {
	t.Setenv("CI", "")
	out, good := goodCassettes(t)
	e := newEndpoint(t, "deepseek", func(_ int, w http.ResponseWriter, r *http.Request, p http.Handler) { p.ServeHTTP(w, r) })
	r := runMain(t, "", recordLive(out, e.srv.URL, "--no-key", "--max-requests", "12")...)
	if r.code != exitHarness {
		t.Errorf("exit %d, want 3\n%s", r.code, r.stderr)
	}
	// carriers and missing-echo send 10 requests, fallback 2 (its other
	// answers are played); resume's first would be the 13th.
	want := "record: at most 12 requests (--max-requests)\n" +
		"deepseek/resume: not recorded: request cap reached (--max-requests 12): POST " + e.srv.URL + "/chat/completions was not sent; nothing written for this cell\n" +
		"record: 3 cells not recorded (their cassettes are as they were):\n" +
		"  deepseek/resume: request cap reached (--max-requests 12)\n" +
		"  not started, the request cap reached: deepseek/compaction, deepseek/branch\n" +
		"replaycheck record: 3 cells not recorded\n"
	if r.stderr != want {
		t.Errorf("stderr\n%s\nwant\n%s", r.stderr, want)
	}
	if e.requests() != 12 {
		t.Errorf("%d requests reached the endpoint, want the cap, 12", e.requests())
	}
	for _, sc := range deepSeekCells {
		written := strings.Contains(r.stdout, "wrote "+harness.Path(out, "deepseek", sc)+" ")
		if want := sc == "carriers" || sc == "missing-echo" || sc == "fallback"; written != want {
			t.Errorf("deepseek/%s written: %v, want %v", sc, written, want)
		}
		if !written && mustRead(t, harness.Path(out, "deepseek", sc)) != good[sc] {
			t.Errorf("deepseek/%s: the good cassette changed", sc)
		}
	}
}
