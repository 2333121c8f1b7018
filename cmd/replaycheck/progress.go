package main

import (
	"fmt"
	"io"
	"os"

	"github.com/replaycheck/replaycheck/report"
)

// A progress reports cells on stderr as they finish: on a terminal one
// counter line rewritten in place, elsewhere (a CI log, a pipe) one short
// line per cell, or with coarse set one line per tenth of the cells.
type progress struct {
	w        io.Writer
	total, n int
	terminal bool
	// coarse reports every tenth of the cells off a terminal, for commands
	// that judge many cells (the gate).
	coarse bool
	// verb names the work on the counter line ("running"), unit what is
	// counted ("cells").
	verb, unit string
}

func newProgress(w io.Writer, total int) *progress {
	return &progress{w: w, total: total, terminal: isTerminal(w), verb: "running", unit: "cells"}
}

// cell reports one finished cell.
func (p *progress) cell(c report.Cell) { p.tick(c.ID(), c.Text()) }

// tick reports one finished item: its id, and its outcome for the line
// per item off a terminal.
func (p *progress) tick(id, text string) {
	p.n++
	width := len(fmt.Sprint(p.total))
	switch {
	case p.terminal:
		fmt.Fprintf(p.w, "\r\x1b[K%s %*d/%d  %s", p.verb, width, p.n, p.total, id)
	case p.coarse:
		if tenth := 10 * p.n / max(p.total, 1); tenth > 10*(p.n-1)/max(p.total, 1) {
			fmt.Fprintf(p.w, "%s: %3d%% (%*d/%d %s)\n", p.verb, 10*tenth, width, p.n, p.total, p.unit)
		}
	default:
		fmt.Fprintf(p.w, "[%*d/%d] %s %s\n", width, p.n, p.total, id, text)
	}
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
