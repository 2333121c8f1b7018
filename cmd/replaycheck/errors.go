package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Exit codes.
const (
	exitOK       = 0
	exitFailures = 1
	exitUsage    = 2
	exitHarness  = 3
)

// A usageError is a bad command line: an unknown command or flag, a bad
// flag value, a missing required flag. It exits 2 and prints the usage of
// the command in play.
type usageError struct {
	usage func(io.Writer)
	err   error
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// A helpRequest is -h or --help: the usage goes to stdout and the exit
// code is 0.
type helpRequest struct {
	usage func(io.Writer)
}

func (e *helpRequest) Error() string { return flag.ErrHelp.Error() }

// A failuresError reports conformance failures found by a command: exit 1.
type failuresError struct {
	// n is the number of failures.
	n int
	// what names them, e.g. "cells failed".
	what string
}

func (e *failuresError) Error() string { return fmt.Sprintf("%d %s", e.n, e.what) }

// A notJudgedError reports cells that could not be judged (status error):
// the report is complete but the matrix is not, so it is a harness error,
// exit 3, after the report was printed or written.
type notJudgedError struct{ n int }

// An unreadableEvidenceError reports imported cassettes that could not be
// read: the evidence section lists them, and the run is incomplete (exit
// 3) after the report was printed or written.
type unreadableEvidenceError struct{ n int }

func (e *unreadableEvidenceError) Error() string {
	if e.n == 1 {
		return "1 imported cassette could not be read: the recorded-evidence section names it and why"
	}
	return fmt.Sprintf("%d imported cassettes could not be read: the recorded-evidence section names them and why", e.n)
}

func (e *notJudgedError) Error() string {
	if e.n == 1 {
		return "1 cell could not be judged (error): its detail names the bad input"
	}
	return fmt.Sprintf("%d cells could not be judged (error): their details name the bad input", e.n)
}

// exitCode prints err the way its kind asks and returns the exit code.
// Any error that is not a usage error or a failures error is a harness
// error or bad input: exit 3.
func exitCode(std *streams, name string, err error) int {
	prefix := "replaycheck"
	if name != "" {
		prefix += " " + name
	}
	var help *helpRequest
	var usage *usageError
	var failures *failuresError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &help):
		help.usage(std.out)
		return exitOK
	case errors.As(err, &usage):
		fmt.Fprintf(std.err, "%s: %v\n\n", prefix, usage.err)
		usage.usage(std.err)
		return exitUsage
	case errors.As(err, &failures):
		fmt.Fprintf(std.err, "%s: %v\n", prefix, failures)
		return exitFailures
	default:
		fmt.Fprintf(std.err, "%s: %v\n", prefix, err)
		return exitHarness
	}
}
