package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// binary is the replaycheck binary built once by TestMain for the tests
// that run it as a subprocess (serve, signals, killed recordings).
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "replaycheck-bin-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "replaycheck")
	build := exec.Command("go", "build", "-o", binary, ".")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	for _, f := range cleanups {
		f()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// cleanups run when every test of the package has: they remove what tests
// share across the package (see committedRun).
var cleanups []func()

// Paths of the committed project files, from this package's directory.
const (
	repoMatrix    = "../../matrix.yaml"
	repoProviders = "../../providers"
	repoCassettes = "../../cassettes"
)

// subprocessTimeout bounds every subprocess a test starts.
const subprocessTimeout = 2 * time.Minute

// testEnv is the environment of subprocesses: the test's own, without CI
// (record refuses to run under it), with TMPDIR set to a test directory
// (so anything a killed process leaves behind is cleaned up), plus extra.
func testEnv(t *testing.T, extra ...string) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "CI=") || strings.HasPrefix(kv, "TMPDIR=") {
			continue
		}
		env = append(env, kv)
	}
	return append(append(env, "TMPDIR="+t.TempDir()), extra...)
}

// runBinary runs the binary to completion and returns its exit code and
// output.
func runBinary(t *testing.T, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), subprocessTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("replaycheck %s: %v", strings.Join(args, " "), err)
		}
		code = ee.ExitCode()
	}
	return result{code, out.String(), errb.String()}
}

// A server is a running `replaycheck serve` subprocess.
type server struct {
	cmd    *exec.Cmd
	url    string
	stderr *syncBuffer
	done   chan struct{}
	err    error
}

// startServe starts `replaycheck serve --profile NAME` on a free loopback
// port and reads the address from its first line of output. The process
// is killed at the end of the test if it still runs.
func startServe(t *testing.T, profile string) *server {
	t.Helper()
	cmd := exec.Command(binary, "serve", "--profile", profile, "--providers", repoProviders, "--seed", "e2e")
	cmd.Env = testEnv(t)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, stderr: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		s.err = cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		select {
		case <-s.done:
		default:
			_ = cmd.Process.Kill()
			<-s.done
		}
	})
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- l
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case l := <-line:
		const prefix = "listening on http://127.0.0.1:"
		if !strings.HasPrefix(l, prefix) || !strings.HasSuffix(l, "\n") {
			t.Fatalf("serve: first line %q, want %q…; stderr:\n%s", l, prefix, s.stderr)
		}
		s.url = strings.TrimPrefix(strings.TrimSpace(l), "listening on ")
	case <-time.After(subprocessTimeout):
		t.Fatalf("serve printed no address; stderr:\n%s", s.stderr)
	}
	return s
}

// stop sends sig and returns the exit code once the process has exited.
func (s *server) stop(t *testing.T, sig syscall.Signal) int {
	t.Helper()
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.done:
	case <-time.After(subprocessTimeout):
		t.Fatalf("serve did not stop on %v; stderr:\n%s", sig, s.stderr)
	}
	if s.err != nil {
		if ee, ok := s.err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		t.Fatal(s.err)
	}
	return 0
}

// A syncBuffer is a bytes.Buffer safe for a writer goroutine and a reader.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
