package protocol

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/scenario"
)

// shortTimeout bounds the requests of the misbehaving peers; long enough
// for a loaded machine to start the test binary, short enough for the
// silent peer.
const shortTimeout = 3 * time.Second

var testRoute = engine.Route{APIMode: engine.ModeChat, Provider: "deepseek", BaseURL: "https://api.deepseek.com/v1", Model: "deepseek-v4-flash"}

// TestPeerFailures puts the client in front of peers that break the
// protocol at the first step after hello: each failure is a protocol
// error naming the step and the request, the client never hangs, and the
// next cell gets a new process that fails the same way.
func TestPeerFailures(t *testing.T) {
	tests := []struct {
		peer    string
		timeout time.Duration
		want    []string // substrings of the error
		reason  string
	}{
		{"silent", 300 * time.Millisecond, []string{"decide request 2", "no answer within 300ms"}, "a peer that never answers times out"},
		{"exits", shortTimeout, []string{"decide request 2", "closed its output before answering", "exit status 3", "stderr: panic: the replay function blew up"},
			"a crash names the exit status and quotes stderr"},
		{"garbage", shortTimeout, []string{"decide request 2", "malformed reply: offset 0", "Traceback"}, "garbage is malformed output, quoted"},
		{"wrong-id", shortTimeout, []string{"decide request 2", "id 102 answers another request (want 2)"}, "an answer to another id is refused"},
		{"huge", shortTimeout, []string{"decide request 2", "a line longer than 16 MiB"}, "a line of many MB is cut off, not buffered"},
		{"two-answers", shortTimeout, []string{"want exactly one of result, unsupported and error, got 2"}, "a reply is one of three kinds"},
		{"unknown-field", shortTimeout, []string{"result.carriers_extra: unknown field"}, "unknown fields are refused with their path"},
		{"missing-field", shortTimeout, []string{"result.pad: missing"}, "missing fields are refused with their path"},
		{"bad-carrier", shortTimeout, []string{`result.carriers[0]: "reasoning_contents" is not a carrier`}, "carrier names are checked"},
	}
	for _, tc := range tests {
		t.Run(tc.peer, func(t *testing.T) {
			cfg := peerCommand(t, tc.peer)
			// The restarted test binary's start-up is not what a row
			// times, so a loaded machine can take its time to say hello.
			cfg.Timeout, cfg.HelloTimeout = tc.timeout, shortTimeout
			if tc.peer == "huge" {
				cfg.maxLine = testMaxLine
			}
			c, err := Start(context.Background(), cfg)
			if err != nil {
				t.Fatalf("%s: start: %v", tc.reason, err)
			}
			defer c.Close()
			for cell := 1; cell <= 2; cell++ {
				impl, err := c.Open(context.Background(), t.TempDir())
				if err != nil {
					t.Fatalf("%s: cell %d: open (restart): %v", tc.reason, cell, err)
				}
				start := time.Now()
				_, err = impl.Decide(context.Background(), testRoute, 0)
				var perr *Error
				if !errors.As(err, &perr) {
					t.Fatalf("%s: cell %d: got %v (%T), want a protocol error", tc.reason, cell, err, err)
				}
				if perr.Step != CmdDecide {
					t.Errorf("%s: step %q, want decide", tc.reason, perr.Step)
				}
				if cell == 1 {
					for _, w := range tc.want {
						if !strings.Contains(err.Error(), w) {
							t.Errorf("%s: error %q does not say %q", tc.reason, err, w)
						}
					}
				}
				if took := time.Since(start); took > tc.timeout+exitGrace+time.Second {
					t.Errorf("%s: the failure took %s", tc.reason, took)
				}
				if c.proc != nil {
					t.Errorf("%s: the failed process is still the client's", tc.reason)
				}
			}
		})
	}
}

// TestPeerAnswers covers the answers that are not protocol errors: an
// unsupported step (the cell becomes n/a) and a failed step (the cell
// fails with the implementation's message); the process keeps serving.
func TestPeerAnswers(t *testing.T) {
	tests := []struct {
		peer   string
		check  func(error) bool
		want   string
		reason string
	}{
		{"unsupported", func(err error) bool {
			var u *scenario.UnsupportedError
			return errors.As(err, &u) && u.Step == CmdDecide
		},
			"peer does not support the decide step: this agent routes nothing (https://example.com/issues/1)", "unsupported carries the reason and the issue"},
		{"error", func(err error) bool { var s *StepError; return errors.As(err, &s) }, "decide: no route table loaded", "an error answer is the message, verbatim"},
	}
	for _, tc := range tests {
		t.Run(tc.peer, func(t *testing.T) {
			cfg := peerCommand(t, tc.peer)
			cfg.Timeout = shortTimeout
			c, err := Start(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			impl, err := c.Open(context.Background(), "")
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 2; i++ {
				_, err := impl.Decide(context.Background(), testRoute, 0)
				if !tc.check(err) || err.Error() != tc.want {
					t.Errorf("%s: got %v (%T), want %q", tc.reason, err, err, tc.want)
				}
			}
			if c.proc == nil {
				t.Errorf("%s: the process was stopped; it answered within the protocol", tc.reason)
			}
			if err := c.Close(); err != nil {
				t.Errorf("%s: bye: %v", tc.reason, err)
			}
		})
	}
}

// TestHelloFailures: a peer that fails hello fails Start with a message
// naming the problem, and leaves no process behind.
func TestHelloFailures(t *testing.T) {
	tests := []struct {
		peer, want, reason string
	}{
		{"hello-silent", "hello request 1: no answer within", "a peer silent at hello times out"},
		{"hello-protocol-2", "result.protocol: the implementation speaks protocol 2, the harness 1", "versions must agree"},
		{"hello-no-modes", "result.api_modes: empty", "an implementation names its api modes"},
		{"hello-unknown-mode", `result.api_modes[1]: unknown api mode "soap"`, "api modes are known ones"},
	}
	for _, tc := range tests {
		t.Run(tc.peer, func(t *testing.T) {
			cfg := peerCommand(t, tc.peer)
			cfg.Timeout = 500 * time.Millisecond
			c, err := Start(context.Background(), cfg)
			if err == nil {
				c.Close()
				t.Fatalf("%s: started", tc.reason)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: got %q, want %q", tc.reason, err, tc.want)
			}
		})
	}
	if _, err := Start(context.Background(), Config{Command: []string{"/nonexistent/connector"}}); err == nil || !strings.Contains(err.Error(), "start /nonexistent/connector") {
		t.Errorf("a command that does not start: got %v", err)
	}
}

// TestClientSupports applies the hello's api modes and scenarios.
func TestClientSupports(t *testing.T) {
	c := &Client{hello: Hello{Implementation: Implementation{Name: "acme"}, APIModes: []string{"chat"}, Scenarios: []string{"carriers"}}}
	tests := []struct {
		mode     engine.APIMode
		scenario string
		want     string
		reason   string
	}{
		{engine.ModeChat, "carriers", "", "a listed mode and scenario take part"},
		{engine.ModeAnthropic, "carriers", "acme does not support api mode anthropic (it supports chat)", "other api modes are n/a"},
		{engine.ModeChat, "resume", "acme does not take part in the resume scenario (it takes part in carriers)", "unlisted scenarios are n/a"},
	}
	for _, tc := range tests {
		sc, _ := scenario.ByName(tc.scenario)
		var target = targetWithMode(tc.mode)
		ok, why := c.Supports(target, sc)
		if ok != (tc.want == "") || why != tc.want {
			t.Errorf("%s: got %v %q, want %q", tc.reason, ok, why, tc.want)
		}
	}
}

func targetWithMode(mode engine.APIMode) matrix.Target {
	return matrix.Target{ID: "t", Route: engine.Route{APIMode: mode, Provider: "p", BaseURL: "https://example.com", Model: "m"}}
}

// TestLongReply has the client take a reply over 16 MiB: a shaped body
// for a long session is tens of MB, and the client takes a reply line as
// long as the server takes a request line.
func TestLongReply(t *testing.T) {
	if MaxLine < MaxRequestLine {
		t.Fatalf("the client takes replies of %d MiB, the server requests of %d MiB", MaxLine>>20, MaxRequestLine>>20)
	}
	cfg := peerCommand(t, "long")
	cfg.Timeout, cfg.HelloTimeout = 10*time.Second, shortTimeout
	c, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	impl, err := c.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d, err := impl.Decide(context.Background(), testRoute, 0)
	if err != nil {
		t.Fatalf("a %d MiB reply: %v", longReply>>20, err)
	}
	if len(d.Reasons) != 1 || len(d.Reasons[0]) != longReply {
		t.Errorf("the long reply's reason came back with %d reasons", len(d.Reasons))
	}
}
