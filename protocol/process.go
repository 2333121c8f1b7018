package protocol

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"github.com/replaycheck/replaycheck/internal/procgroup"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// MaxLine bounds one line of the protocol either way (1 GiB): a longer
// reply is a protocol error, read no further. A connector takes the whole
// session on every request and a shaped body carries it back, and long
// sessions are tens of MB, so the client takes a reply as long as a
// request the [Server] takes.
const MaxLine = 1 << 30

// MaxRequestLine bounds one request line a [Server] reads: [MaxLine], the
// same bound the client holds a reply to.
const MaxRequestLine = MaxLine

// stderrTail is how much of the implementation's standard error an error
// quotes: the last bytes it wrote.
const stderrTail = 2048

// exitGrace is how long a process that closed its output may take to exit
// before it is killed, and how long bye waits.
const exitGrace = 2 * time.Second

// errLineTooLong is a line longer than the limit in play.
var errLineTooLong = errors.New("a line too long")

// lineTooLong is errLineTooLong saying the limit: a line longer than
// limit bytes.
func lineTooLong(limit int) error {
	return &tooLongError{limit: limit}
}

// A tooLongError is a line longer than limit bytes; it is errLineTooLong.
type tooLongError struct{ limit int }

func (e *tooLongError) Error() string {
	return fmt.Sprintf("a line longer than %d MiB", e.limit>>20)
}

func (e *tooLongError) Is(target error) bool { return target == errLineTooLong }

// A process is one running implementation: its standard input, a reader
// of its output lines, and the tail of its standard error.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan lineResult
	stderr *tailBuffer
	done   chan struct{} // closed once the process has exited
	err    error         // the exit error, set before done closes
}

type lineResult struct {
	line []byte
	err  error
}

// startProcess starts the configured command with its output read line
// by line.
func startProcess(cfg Config) (*process, error) {
	if len(cfg.Command) == 0 {
		return nil, errors.New("no command")
	}
	cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
	cmd.Dir = cfg.Dir
	if len(cfg.Env) > 0 {
		cmd.Env = append(os.Environ(), cfg.Env...)
	}
	procgroup.Set(cmd)
	p := &process{cmd: cmd, lines: make(chan lineResult, 1), stderr: &tailBuffer{max: stderrTail}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	// WaitDelay bounds how long Wait waits for standard error to close
	// after the process exits (a child it left behind may hold it).
	cmd.WaitDelay = exitGrace
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	// Standard output is a pipe of our own, not StdoutPipe, so that Wait
	// never closes it before the last line is read.
	stdout, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = w
	err = cmd.Start()
	w.Close()
	if err != nil {
		stdout.Close()
		return nil, err
	}
	p.stdin = stdin
	go p.read(stdout, cmp.Or(cfg.maxLine, MaxLine))
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// read sends each output line, then the error that ended the output, and
// closes the channel. A line longer than limit ends the reading.
func (p *process) read(out io.ReadCloser, limit int) {
	defer out.Close()
	defer close(p.lines)
	r := bufio.NewReaderSize(out, 64<<10)
	for {
		line, err := readLine(r, limit)
		if len(line) > 0 {
			p.lines <- lineResult{line: line}
		}
		if err != nil {
			p.lines <- lineResult{err: err}
			if errors.Is(err, errLineTooLong) {
				_, _ = io.Copy(io.Discard, r)
			}
			return
		}
	}
}

// readLine reads one line, newline included; at the end of the input it
// returns what is left with the error. It never holds more than limit
// bytes: a longer line is [errLineTooLong], its bytes unread.
func readLine(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > limit {
			return nil, lineTooLong(limit)
		}
		line = append(line, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// exited waits up to grace for the process to exit and describes how it
// did; false when it still runs.
func (p *process) exited(grace time.Duration) (string, bool) {
	select {
	case <-p.done:
	case <-time.After(grace):
		return "", false
	}
	if p.err == nil {
		return "exited with status 0", true
	}
	return p.err.Error(), true
}

// kill ends the process (and its process group), waits for it, and
// drains what is left of its output so the reader goroutine ends.
func (p *process) kill() {
	select {
	case <-p.done:
	default:
		procgroup.Kill(p.cmd)
		<-p.done
	}
	_ = p.stdin.Close()
	go func() {
		for range p.lines {
		}
	}()
}

// A tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
	cut bool
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.cut = true
	}
	return len(b), nil
}

// String returns the tail, trimmed, marked when earlier bytes were cut.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := string(bytes.TrimSpace(t.buf))
	if t.cut && s != "" {
		s = "…" + s
	}
	return s
}
