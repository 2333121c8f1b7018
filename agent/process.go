package agent

import (
	"context"
	"errors"
	"github.com/replaycheck/replaycheck/internal/procgroup"
	"os/exec"
	"sync"
	"time"
)

// tailSize is how much of the agent's output a run keeps: its end, for
// the detail of a cell the agent broke.
const tailSize = 4 << 10

// A run is what became of one agent process.
type run struct {
	// Started is false when the command could not be started (Err says why).
	Started bool
	// ExitCode is the exit status, -1 when killed.
	ExitCode int
	// TimedOut is true when the agent was stopped at the timeout.
	TimedOut bool
	Err      error
	// Output is the end of the agent's standard output and error.
	Output   string
	Duration time.Duration
}

// execute runs argv in dir with env until it exits or timeout passes,
// then kills its whole process group. Standard input is empty.
func execute(ctx context.Context, argv []string, dir string, env []string, timeout time.Duration) run {
	start := time.Now()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	out := &tail{}
	cmd.Stdout, cmd.Stderr = out, out
	// A child that outlives the agent holding its output open does not
	// hold the run up.
	cmd.WaitDelay = 2 * time.Second
	procgroup.Set(cmd)
	if err := cmd.Start(); err != nil {
		return run{Err: err, ExitCode: -1}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	r := run{Started: true}
	var err error
	select {
	case err = <-done:
	case <-timer.C:
		r.TimedOut = true
		procgroup.Kill(cmd)
		err = <-done
	case <-ctx.Done():
		procgroup.Kill(cmd)
		err = <-done
		r.Err = ctx.Err()
	}
	// The agent may leave children behind (a language server, a
	// subprocess tool): they go with its process group.
	procgroup.Kill(cmd)
	r.Duration = time.Since(start)
	r.Output = out.String()
	var exit *exec.ExitError
	switch {
	case err == nil:
		r.ExitCode = 0
	case errors.As(err, &exit):
		r.ExitCode = exit.ExitCode()
	default:
		r.ExitCode = -1
		if r.Err == nil {
			r.Err = err
		}
	}
	return r
}

// A tail keeps the last tailSize bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - tailSize; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
