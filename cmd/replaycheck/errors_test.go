package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/protocol"
)

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badJSON := write("bad.json", "{\n  \"messages\": [\n    {\"role\": \"user\",}\n  ]\n}\n")
	badMatrix := write("matrix.yaml", "version: 1\necho_families:\n  - name: Bad Name\n    hosts: [x.com]\n")
	emptyStream := write("empty.sse", ": keep-alive\n\n")
	badResponsesStream := write("bad-responses.sse", "data: {\"type\":\"response.created\"}\n\ndata: {not json}\n\n")
	errorBody := write("error.json", `{"error":{"message":"The model is overloaded","code":529}}`)
	db := sampleStore(t)
	route := []string{"--provider", "deepseek", "--base-url", "https://api.deepseek.com/v1", "--model", "deepseek-v4-flash"}
	explain := append([]string{"explain", "--matrix", testMatrix}, route...)
	shape := append([]string{"shape", "--matrix", testMatrix}, route...)

	tests := []struct {
		reason string
		args   []string
		stdin  string
		code   int
		stderr []string
	}{
		{"no command", nil, "", 2, []string{"replaycheck: no command given", "usage: replaycheck <command>"}},
		{"unknown command", []string{"frobnicate"}, "", 2, []string{`replaycheck: unknown command "frobnicate"`, "Run 'replaycheck help' for the commands."}},
		{"a mistyped command", []string{"rnu"}, "", 2, []string{`replaycheck: unknown command "rnu"` + "\ndid you mean run?\n"}},
		{"a mistyped flag", []string{"run", "--taget", "deepseek"}, "", 2, []string{"replaycheck run: flag provided but not defined: -taget\ndid you mean --target?\nusage: replaycheck run ", "Run 'replaycheck run -h' for every flag.\n"}},
		{"help for an unknown command", []string{"help", "frobnicate"}, "", 2, []string{`unknown command "frobnicate"`}},
		{"unknown flag", append(slicesClone(explain), "--bogus"), "", 2, []string{"replaycheck explain: flag provided but not defined: -bogus", "usage: replaycheck explain"}},
		{"missing required flags", []string{"explain", "--provider", "deepseek"}, "", 2, []string{"missing required --base-url, --model", "usage: replaycheck explain"}},
		{"unknown api mode", append(slicesClone(explain), "--api-mode", "soap"), "", 2, []string{`--api-mode "soap": unknown api mode`}},
		{"unknown carrier in --rejected", append(slicesClone(explain), "--rejected", "reasoning,thinking"), "", 2, []string{`--rejected: unknown carrier "thinking"`}},
		{"a base URL without a host", []string{"explain", "--provider", "p", "--model", "m", "--base-url", "http://"}, "", 2, []string{`--base-url "http://": no hostname`}},
		{"a stray argument", append(slicesClone(explain), "extra"), "", 2, []string{`unexpected argument "extra"`}},
		{"a missing matrix file", []string{"explain", "--matrix", filepath.Join(dir, "nope.yaml"), "--provider", "p", "--model", "m", "--base-url", "x.com"}, "", 3, []string{"replaycheck explain: matrix: open " + filepath.Join(dir, "nope.yaml")}},
		{"a malformed matrix names the line", []string{"explain", "--matrix", badMatrix, "--provider", "p", "--model", "m", "--base-url", "x.com"}, "", 3, []string{badMatrix + ":3:"}},
		{"a missing session file", append(slicesClone(shape), "--session", filepath.Join(dir, "missing.json")), "", 3, []string{"replaycheck shape: open " + filepath.Join(dir, "missing.json") + ": no such file"}},
		{"malformed session on stdin", shape, "[{\"role\":", 3, []string{"<stdin>:1:9: invalid JSON"}},
		{"empty stdin", shape, "", 3, []string{"<stdin>: empty input"}},
		{"an error response body", []string{"capture", errorBody}, "", 3, []string{errorBody + ": chat: response is an error"}},
		{"a stream without chunks", []string{"capture", "--stream", emptyStream}, "", 3, []string{emptyStream + ": chat: stream: no chunk events"}},
		{"a malformed Responses event names the offset", []string{"capture", "--api-mode", "responses", "--stream", badResponsesStream}, "", 3, []string{badResponsesStream + ": responses: stream: event at offset 35: data is not valid JSON"}},
		{"a capture route must be whole", []string{"capture", "--api-mode", "responses", "--provider", "openai", errorBody}, "", 2, []string{"give all three or none"}},
		{"a Responses error body", []string{"capture", "--api-mode", "responses", errorBody}, "", 3, []string{errorBody + `: responses: error: the response is an error: {"message":"The model is overloaded","code":529}`}},
		{"two input files", []string{"capture", badJSON, errorBody}, "", 2, []string{`unexpected argument "` + errorBody + `"`}},
		{"session without a subcommand", []string{"session"}, "", 2, []string{"no subcommand given", "show  list the sessions"}},
		{"unknown session subcommand", []string{"session", "drop"}, "", 2, []string{`unknown subcommand "drop"`}},
		{"session show without --db", []string{"session", "show"}, "", 2, []string{"missing required --db", "usage: replaycheck session show"}},
		{"a store file that does not exist", []string{"session", "show", "--db", filepath.Join(dir, "none.db")}, "", 3, []string{"stat " + filepath.Join(dir, "none.db") + ": no such file"}},
		{"an unknown session id", []string{"session", "show", "--db", db, "ghost"}, "", 3, []string{`store: session "ghost": load: no such session`}},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			r := runMain(t, tt.stdin, tt.args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", r.code, tt.code, r.stderr)
			}
			for _, s := range tt.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr does not contain %q:\n%s", s, r.stderr)
				}
			}
			if r.stdout != "" {
				t.Errorf("a failing command wrote to stdout:\n%s", r.stdout)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); err == nil {
		t.Error("session show created the store file it was asked to show")
	}
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

func TestExitCodeKinds(t *testing.T) {
	tests := []struct {
		reason string
		err    error
		code   int
		stdout string
		stderr string
	}{
		{"success", nil, 0, "", ""},
		{"help goes to stdout", &helpRequest{usage: func(w io.Writer) { fmt.Fprint(w, "usage: x\n") }}, 0, "usage: x\n", ""},
		{"usage errors print the usage", &usageError{usage: func(w io.Writer) { fmt.Fprint(w, "usage: x\n") }, err: fmt.Errorf("bad")}, 2, "", "replaycheck demo: bad\n\nusage: x\n"},
		{"conformance failures", fmt.Errorf("gate: %w", &failuresError{n: 3, what: "cells failed"}), 1, "", "replaycheck demo: 3 cells failed\n"},
		{"anything else is a harness error", fmt.Errorf("cassettes/x.yaml: interaction 2: boom"), 3, "", "replaycheck demo: cassettes/x.yaml: interaction 2: boom\n"},
		{"the command's name is not said twice", fmt.Errorf("demo: --base: boom"), 3, "", "replaycheck demo: --base: boom\n"},
		{"a short usage replaces the whole page", &usageError{usage: func(w io.Writer) { fmt.Fprint(w, "usage: x\n") }, short: func(w io.Writer) { fmt.Fprint(w, "usage: x [flags]\n") }, hint: "did you mean --y?", err: fmt.Errorf("bad")}, 2, "", "replaycheck demo: bad\ndid you mean --y?\nusage: x [flags]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := exitCode(&streams{out: &out, err: &errb}, "demo", tt.err)
			if code != tt.code || out.String() != tt.stdout || errb.String() != tt.stderr {
				t.Errorf("exitCode = %d, stdout %q, stderr %q; want %d, %q, %q", code, out.String(), errb.String(), tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}

// TestSuggest: a typo gets the nearest name; a word near nothing gets none.
func TestSuggest(t *testing.T) {
	names := []string{"run", "gate", "mutate", "probe", "record", "import", "serve", "target", "scenario", "cassettes"}
	for word, want := range map[string]string{
		"rnu": "run", "gaet": "gate", "recrod": "record", "taget": "target", "scenarios": "scenario", "casettes": "cassettes",
		"frobnicate": "", "x": "", "": "",
	} {
		if got := suggest(word, names); got != want {
			t.Errorf("suggest(%q) = %q, want %q", word, got, want)
		}
	}
}

// TestVersionAndHelp: --version names the module and protocol versions;
// the command list documents every exit code.
func TestVersionAndHelp(t *testing.T) {
	r := runMain(t, "", "--version")
	if r.code != exitOK || !strings.HasPrefix(r.stdout, "replaycheck ") || !strings.Contains(r.stdout, fmt.Sprintf("(engine protocol %d)", protocol.Version)) {
		t.Errorf("--version: exit %d, %q", r.code, r.stdout)
	}
	r = runMain(t, "", "help")
	for _, code := range []string{"0 ok", "1 conformance failures", "2 usage error", "3 harness error", "4 cells not judged"} {
		if !strings.Contains(r.stdout, code) {
			t.Errorf("help does not document exit %q:\n%s", code, r.stdout)
		}
	}
}

// TestCaptureSaysStream: a stream given to capture without --stream is
// named as one, not as invalid JSON at its first byte.
func TestCaptureSaysStream(t *testing.T) {
	path := filepath.Join(t.TempDir(), "response.sse")
	if err := os.WriteFile(path, []byte("data: {\"id\":\"x\"}\n\ndata: [DONE]\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runMain(t, "", "capture", path)
	if r.code != exitHarness || !strings.Contains(r.stderr, path+": a streamed response (server-sent events or event-stream frames), not a JSON body: pass --stream") {
		t.Errorf("exit %d: %s", r.code, r.stderr)
	}
}
