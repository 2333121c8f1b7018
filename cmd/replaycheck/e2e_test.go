package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// fakeKey is the API key the end-to-end recording runs with; it must reach
// the provider and never the cassette.
const fakeKey = "sk-test-0123456789abcdefghij"

// A gateProxy sits between `record` and `serve` on loopback: it sees every
// request exactly as sent (credentials included) and, when holding, lets
// the first request of a run through and holds every later one until the
// client goes away, so a test can kill a recording halfway, at a known
// point.
type gateProxy struct {
	srv *httptest.Server
	rp  *httputil.ReverseProxy

	// release frees held requests when the test ends.
	release chan struct{}

	mu   sync.Mutex
	auth []string
	hold bool
	held chan struct{}
	once *sync.Once
}

func newGateProxy(t *testing.T, upstream string) *gateProxy {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	p := &gateProxy{rp: httputil.NewSingleHostReverseProxy(u), release: make(chan struct{})}
	p.reset(false)
	p.srv = httptest.NewServer(p)
	t.Cleanup(func() {
		close(p.release)
		p.srv.Close()
	})
	return p
}

// reset starts a new run: it forgets the headers seen and sets holding.
func (p *gateProxy) reset(hold bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.auth, p.hold, p.held, p.once = nil, hold, make(chan struct{}), &sync.Once{}
}

func (p *gateProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.auth = append(p.auth, r.Header.Get("Authorization"))
	hold := p.hold && len(p.auth) > 1
	held, once := p.held, p.once
	p.mu.Unlock()
	if hold {
		// Reading the whole body lets the server notice the client going
		// away (it then cancels the request's context).
		_, _ = io.Copy(io.Discard, r.Body)
		once.Do(func() { close(held) })
		select {
		case <-r.Context().Done():
		case <-p.release:
		case <-time.After(subprocessTimeout):
			// Never hold longer than a subprocess may live, whatever
			// happens to the client.
		}
		return
	}
	p.rp.ServeHTTP(w, r)
}

// seen returns the Authorization headers of the run so far.
func (p *gateProxy) seen() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.auth...)
}

// loadRepo loads the committed matrix and profiles.
func loadRepo(t *testing.T) (*matrix.File, map[string]*providers.Profile) {
	t.Helper()
	mf, err := matrix.Load(repoMatrix)
	if err != nil {
		t.Fatal(err)
	}
	list, err := providers.LoadDir(repoProviders)
	if err != nil {
		t.Fatal(err)
	}
	return mf, providers.ByName(list)
}

// TestRecordAgainstServe is the end-to-end path a user takes: serve a
// profile on loopback, record a target through it with a key in the
// environment, replay the cassette; then kill a recording halfway and stop
// the server with SIGTERM.
func TestRecordAgainstServe(t *testing.T) {
	mf, profiles := loadRepo(t)
	srv := startServe(t, "deepseek")
	proxy := newGateProxy(t, srv.url)
	out := t.TempDir()
	env := testEnv(t, "FAKE_KEY="+fakeKey)
	record := func(sc string, extra ...string) []string {
		return append([]string{"record", "--target", "deepseek", "--scenario", sc, "--base-url", proxy.srv.URL,
			"--key-env", "FAKE_KEY", "--out", out, "--matrix", repoMatrix, "--providers", repoProviders}, extra...)
	}
	path := harness.Path(out, "deepseek", "missing-echo")

	r := runBinary(t, env, record("missing-echo")...)
	if r.code != 0 {
		t.Fatalf("record: exit %d\n%s", r.code, r.stderr)
	}
	if want := "wrote " + path + " (simulated deepseek/v"; !strings.Contains(r.stdout, want) {
		t.Errorf("record output %q does not contain %q", r.stdout, want)
	}

	t.Run("the key reached the provider on every request", func(t *testing.T) {
		seen := proxy.seen()
		if len(seen) == 0 {
			t.Fatal("no request reached the proxy")
		}
		for i, a := range seen {
			if a != "Bearer "+fakeKey {
				t.Errorf("request %d: Authorization %q, want the bearer key", i, a)
			}
		}
	})

	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("the cassette holds no trace of the key", func(t *testing.T) {
		for _, s := range []string{fakeKey, "0123456789abcdefghij", "sk-test", "Bearer", "Authorization", "FAKE_KEY"} {
			if bytes.Contains(raw, []byte(s)) {
				t.Errorf("%s contains %q", path, s)
			}
		}
	})

	t.Run("the cassette carries simulated provenance", func(t *testing.T) {
		f, err := harness.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		want := harness.Provenance{Kind: harness.Simulated, Target: "deepseek", Scenario: "missing-echo",
			Profile: "deepseek", ProfileVersion: profiles["deepseek"].Version}
		if f.Provenance != want {
			t.Errorf("provenance %+v, want %+v", f.Provenance, want)
		}
		if len(f.Interactions) == 0 {
			t.Error("no interactions recorded")
		}
		for _, it := range f.Interactions {
			if !strings.HasPrefix(it.Request.URL, "https://api.deepseek.com/v1/") || it.Request.Host != "api.deepseek.com" {
				t.Errorf("interaction %d: %s (host %s): the cassette must show the target's URL, not where requests went", it.ID, it.Request.URL, it.Request.Host)
			}
		}
		if fd := harness.Scan(f); len(fd) > 0 {
			t.Errorf("credential scan: %+v", fd)
		}
	})

	t.Run("the cassette replays", func(t *testing.T) {
		target, _ := mf.Target("deepseek")
		sc, _ := scenario.ByName("missing-echo")
		runner := &scenario.Runner{Matrix: mf, Profiles: profiles, CassetteDir: out}
		if cell := runner.Cell(context.Background(), target, sc); cell.Status != report.StatusPass {
			t.Errorf("replay: %s: %s (expected %s, actual %s)", cell.Status, cell.Detail, cell.Expected, cell.Actual)
		}
	})

	// A bigger cell for the interrupted recordings: many requests, so
	// stopping after the first is halfway.
	bigPath := harness.Path(out, "deepseek", "compaction")
	if r := runBinary(t, env, record("compaction")...); r.code != 0 {
		t.Fatalf("record compaction: exit %d\n%s", r.code, r.stderr)
	}
	previous, err := os.ReadFile(bigPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(proxy.seen()); n < 4 {
		t.Fatalf("compaction sent %d requests; the interrupted runs need a bigger cell", n)
	}
	unchanged := func(t *testing.T) {
		t.Helper()
		now, err := os.ReadFile(bigPath)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(now, previous) {
			t.Errorf("%s changed: the previous cassette must stay byte-identical", bigPath)
		}
		entries, err := os.ReadDir(filepath.Dir(bigPath))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if got := strings.Join(names, " "); got != "compaction.yaml missing-echo.yaml" {
			t.Errorf("cassette directory holds %q, want only the two cassettes", got)
		}
	}

	t.Run("a recording killed halfway leaves the previous cassette intact", func(t *testing.T) {
		proxy.reset(true)
		defer proxy.reset(false)
		ctx, cancel := context.WithTimeout(context.Background(), subprocessTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, binary, record("compaction")...)
		cmd.Env = env
		var errb syncBuffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-proxy.held:
		case <-time.After(subprocessTimeout):
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the recording never sent a second request; stderr:\n%s", errb.String())
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("record was not killed by SIGKILL: %v", err)
		}
		if n := len(proxy.seen()); n != 2 {
			t.Errorf("%d requests reached the proxy, want the first served and the second held", n)
		}
		unchanged(t)
	})

	t.Run("a recording stopped by --max-requests writes nothing", func(t *testing.T) {
		r := runBinary(t, env, record("compaction", "--max-requests", "3")...)
		if r.code != exitHarness {
			t.Errorf("exit %d, want %d", r.code, exitHarness)
		}
		for _, s := range []string{"deepseek/compaction", "request cap reached (--max-requests 3)", "nothing written"} {
			if !strings.Contains(r.stderr, s) {
				t.Errorf("stderr does not contain %q:\n%s", s, r.stderr)
			}
		}
		if r.stdout != "" {
			t.Errorf("stdout %q: nothing was written", r.stdout)
		}
		if n := len(proxy.seen()); n != 3 {
			t.Errorf("%d requests reached the provider, want the cap of 3", n)
		}
		unchanged(t)
	})

	t.Run("serve stops on SIGTERM and exits 0", func(t *testing.T) {
		if code := srv.stop(t, syscall.SIGTERM); code != 0 {
			t.Errorf("exit %d, want 0; stderr:\n%s", code, srv.stderr)
		}
		logged := srv.stderr.String()
		for _, s := range []string{"POST /chat/completions -> 200", "POST /chat/completions -> 400 rule reasoning-content-missing", "stopped"} {
			if !strings.Contains(logged, s) {
				t.Errorf("serve's log does not contain %q:\n%s", s, logged)
			}
		}
		if strings.Contains(logged, fakeKey) || strings.Contains(logged, "Bearer") {
			t.Errorf("serve logged the key:\n%s", logged)
		}
	})
}

func TestServeStopsOnSIGINT(t *testing.T) {
	srv := startServe(t, "anthropic")
	resp, err := http.Post(srv.url+"/v1/messages", "application/json", strings.NewReader(`{"model":"claude-opus-4-6","messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get(harness.SimulatorHeader) == "" {
		t.Errorf("serve answered %d with %s %q", resp.StatusCode, harness.SimulatorHeader, resp.Header.Get(harness.SimulatorHeader))
	}
	if code := srv.stop(t, syscall.SIGINT); code != 0 {
		t.Errorf("exit %d, want 0; stderr:\n%s", code, srv.stderr)
	}
}

func TestServeRefuses(t *testing.T) {
	tests := []struct {
		reason string
		args   []string
		code   int
		stderr string
	}{
		{"every interface", []string{"--profile", "deepseek", "--addr", "0.0.0.0:0"}, exitUsage, `--addr "0.0.0.0:0": not a loopback address`},
		{"an empty host means every interface", []string{"--profile", "deepseek", "--addr", ":0"}, exitUsage, `--addr ":0": not a loopback address`},
		{"a private address", []string{"--profile", "deepseek", "--addr", "192.168.1.10:8080"}, exitUsage, "not a loopback address"},
		{"an IPv6 wildcard", []string{"--profile", "deepseek", "--addr", "[::]:0"}, exitUsage, "not a loopback address"},
		{"an address without a port", []string{"--profile", "deepseek", "--addr", "127.0.0.1"}, exitUsage, `--addr "127.0.0.1"`},
		{"no profile", nil, exitUsage, "missing required --profile"},
		{"an unknown profile", []string{"--profile", "nope"}, exitUsage, `--profile "nope": no such profile (have anthropic, `},
		{"a providers directory that does not exist", []string{"--profile", "deepseek", "--providers", "no-such-dir"}, exitHarness, "no-such-dir: cannot list profiles"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			args := append([]string{"serve", "--providers", repoProviders}, tt.args...)
			r := runBinary(t, testEnv(t), args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", r.code, r.stderr, tt.code, tt.stderr)
			}
			if r.stdout != "" {
				t.Errorf("serve printed %q: it must not listen", r.stdout)
			}
		})
	}
}
