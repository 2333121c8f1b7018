package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/suites/harness"
)

// TestRecordRefusesAnswersThatJudgeNothing is the finding: a recording
// against an endpoint answering 401 (or 429, or 500) wrote cassettes of
// those answers over good ones and exited 0. Now every cell is a harness
// error: nothing written, the old cassette byte for byte as it was, the
// status and the provider's words quoted, the key never printed, exit 3.
func TestRecordRefusesAnswersThatJudgeNothing(t *testing.T) {
	t.Setenv("CI", "")
	t.Setenv("REPLAYCHECK_TEST_KEY", fakeKey)
	tests := []struct {
		reason string
		code   int
		body   string
		words  string
	}{
		{"a bad key", 401, deepSeekAuthFailure, "401 Unauthorized from POST %s/chat/completions (the endpoint refused the key): " + deepSeekAuthFailure},
		{"a rate limit", 429, `{"error":{"message":"Rate limit reached for requests","type":"rate_limit_error"}}`,
			`429 Too Many Requests from POST %s/chat/completions (rate limited or out of quota): {"error":{"message":"Rate limit reached for requests","type":"rate_limit_error"}}`},
		{"a server error that echoes the key", 500, `{"error":"upstream failed for key ` + fakeKey + `"}`,
			`500 Internal Server Error from POST %s/chat/completions (the provider failed): {"error":"upstream failed for key [scrubbed]"}`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			out, good := goodCassettes(t)
			e := newEndpoint(t, "deepseek", fixed(tt.code, tt.body))
			r := runMain(t, "", recordLive(out, e.srv.URL, "--key-env", "REPLAYCHECK_TEST_KEY")...)
			if r.code != exitHarness {
				t.Errorf("exit %d, want 3\nstderr:\n%s", r.code, r.stderr)
			}
			for _, sc := range deepSeekCells {
				if now := mustRead(t, harness.Path(out, "deepseek", sc)); now != good[sc] {
					t.Errorf("deepseek/%s: the good cassette changed", sc)
				}
				want := "deepseek/" + sc + ": not recorded: " + strings.ReplaceAll(tt.words, "%s", e.srv.URL) + "; nothing written for this cell\n"
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr does not quote %q:\n%s", want, r.stderr)
				}
			}
			if e.requests() != len(deepSeekCells) {
				t.Errorf("%d requests reached the endpoint, want %d: each cell stops at its first bad answer", e.requests(), len(deepSeekCells))
			}
			if !strings.Contains(r.stderr, "record: 6 cells not recorded (their cassettes are as they were):\n") ||
				!strings.HasSuffix(r.stderr, "replaycheck record: 6 cells not recorded\n") {
				t.Errorf("stderr has no summary of the cells not recorded:\n%s", r.stderr)
			}
			if r.stdout != "" || strings.Contains(r.stderr+r.stdout, fakeKey) {
				t.Errorf("stdout %q; stderr:\n%s\nwant nothing written and no key", r.stdout, r.stderr)
			}
		})
	}
}

// TestRecordWritesTheGoodCellsOfABadRun checks that one cell's bad answer
// costs that cell only: the cells before and after it are written, the
// run exits 3 and its summary names the cell and why.
func TestRecordWritesTheGoodCellsOfABadRun(t *testing.T) {
	t.Setenv("CI", "")
	out, good := goodCassettes(t)
	// How many requests the carriers cell sends: the 429 goes to the next.
	count := newEndpoint(t, "deepseek", func(_ int, w http.ResponseWriter, r *http.Request, p http.Handler) { p.ServeHTTP(w, r) })
	if r := runMain(t, "", recordLive(t.TempDir(), count.srv.URL, "--no-key", "--scenario", "carriers")...); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	first := count.requests()
	e := newEndpoint(t, "deepseek", func(n int, w http.ResponseWriter, r *http.Request, p http.Handler) {
		if n == first+1 {
			fixed(429, `{"error":{"message":"Rate limit reached"}}`)(n, w, r, p)
			return
		}
		p.ServeHTTP(w, r)
	})
	r := runMain(t, "", recordLive(out, e.srv.URL, "--no-key", "--scenario", "carriers,missing-echo,resume")...)
	if r.code != exitHarness {
		t.Errorf("exit %d, want 3\nstderr:\n%s", r.code, r.stderr)
	}
	for _, sc := range []string{"carriers", "resume"} {
		path := harness.Path(out, "deepseek", sc)
		if !strings.Contains(r.stdout, "wrote "+path+" (recorded 127.0.0.1 ") {
			t.Errorf("stdout does not say %s was written:\n%s", path, r.stdout)
		}
		if f, err := harness.Read(path); err != nil || f.Provenance.Kind != harness.Recorded {
			t.Errorf("%s: %v: want the new recording", path, err)
		}
	}
	if mustRead(t, harness.Path(out, "deepseek", "missing-echo")) != good["missing-echo"] {
		t.Error("deepseek/missing-echo: the good cassette changed")
	}
	want := "record: 1 cell not recorded (its cassette is as it was):\n" +
		"  deepseek/missing-echo: 429 Too Many Requests (rate limited or out of quota)\n" +
		"replaycheck record: 1 cell not recorded\n"
	if !strings.HasSuffix(r.stderr, want) {
		t.Errorf("stderr ends\n%s\nwant\n%s", r.stderr, want)
	}
}

// TestRecordAnswerCheckBeforeWriting checks the last look before a
// cassette is written: the target profile's documented 404 (a request of
// another platform's shape) is kept, so the committed cassettes that hold
// one record again.
func TestRecordAnswerCheckBeforeWriting(t *testing.T) {
	t.Setenv("CI", "")
	out := t.TempDir()
	r := runMain(t, "", "record", "--matrix", repoMatrix, "--providers", repoProviders,
		"--target", "bedrock-anthropic", "--scenario", "carriers", "--out", out, "--simulate", "--seed", "replaycheck")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	path := harness.Path(out, "bedrock-anthropic", "carriers")
	if got, want := mustRead(t, path), mustRead(t, harness.Path(repoCassettes, "bedrock-anthropic", "carriers")); got != want {
		t.Error("the re-recorded cassette differs from the committed one")
	}
}
