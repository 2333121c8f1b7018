package main

import (
	"fmt"
	"io"
	"os"

	"github.com/replaycheck/replaycheck/report"
)

// A progress reports run's cells on stderr as they finish: on a terminal
// one counter line rewritten in place, elsewhere (a CI log, a pipe) one
// short line per cell.
type progress struct {
	w        io.Writer
	total, n int
	terminal bool
}

func newProgress(w io.Writer, total int) *progress {
	return &progress{w: w, total: total, terminal: isTerminal(w)}
}

// cell reports one finished cell.
func (p *progress) cell(c report.Cell) {
	p.n++
	width := len(fmt.Sprint(p.total))
	if p.terminal {
		fmt.Fprintf(p.w, "\r\x1b[Krunning %*d/%d  %s", width, p.n, p.total, c.ID())
		return
	}
	fmt.Fprintf(p.w, "[%*d/%d] %s %s\n", width, p.n, p.total, c.ID(), c.Text())
}

// done clears the counter line on a terminal.
func (p *progress) done() {
	if p.terminal && p.n > 0 {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// isTerminal reports whether w is a character device, such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
