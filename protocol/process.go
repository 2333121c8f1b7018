package protocol

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// MaxLine bounds one line of the protocol (16 MiB): a longer reply is a
// protocol error, read no further.
const MaxLine = 16 << 20

// MaxRequestLine bounds one request line a [Server] reads (1 GiB): a
// connector takes the whole session on every request, and long sessions
// are tens of MB.
const MaxRequestLine = 1 << 30

// stderrTail is how much of the implementation's standard error an error
// quotes: the last bytes it wrote.
const stderrTail = 2048

// exitGrace is how long a process that closed its output may take to exit
// before it is killed, and how long bye waits.
const exitGrace = 2 * time.Second

// errLineTooLong is a reply longer than [MaxLine].
var errLineTooLong = fmt.Errorf("a line longer than %d MiB", MaxLine>>20)

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
	setProcessGroup(cmd)
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
	go p.read(stdout)
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// read sends each output line, then the error that ended the output, and
// closes the channel. A line longer than MaxLine ends the reading.
func (p *process) read(out io.ReadCloser) {
	defer out.Close()
	defer close(p.lines)
	r := bufio.NewReaderSize(out, 64<<10)
	for {
		line, err := readLine(r, MaxLine)
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
			return nil, errLineTooLong
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
		killProcess(p.cmd)
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
