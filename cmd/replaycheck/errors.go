package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Exit codes.
const (
	exitOK       = 0
	exitFailures = 1
	exitUsage    = 2
	exitHarness  = 3
	// exitNotJudged is a run that printed its matrix but judged less than it
	// was asked to: some cell is unverified (the cassette holds no answer to
	// the request sent), or no cell at all was judged.
	exitNotJudged = 4
)

// A usageError is a bad command line: an unknown command or flag, a bad
// flag value, a missing required flag. It exits 2 and prints the error, a
// hint ("did you mean --target?") when there is one, then short (the
// command's synopsis and where its flags are listed) or, without short,
// the whole usage.
type usageError struct {
	usage func(io.Writer)
	short func(io.Writer)
	hint  string
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

// A notJudgedError is a run whose matrix was printed or written but left
// cells unjudged for want of recorded evidence: exit 4. It is never a pass.
type notJudgedError struct{ msg string }

func (e *notJudgedError) Error() string { return e.msg }

// incomplete is the harness error (exit 3, like any error that is neither
// a usage error nor a failures error) of a run whose report was printed or
// written but could not judge everything: n error cells, or n imported
// cassettes that could not be read. one and many are the message for one
// and for several.
func incomplete(n int, one, many string) error {
	if n == 1 {
		return errors.New("1 " + one)
	}
	return fmt.Errorf("%d %s", n, many)
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
	var notJudged *notJudgedError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &help):
		help.usage(std.out)
		return exitOK
	case errors.As(err, &usage):
		fmt.Fprintf(std.err, "%s: %v\n", prefix, usage.err)
		if usage.hint != "" {
			fmt.Fprintln(std.err, usage.hint)
		}
		if usage.short != nil {
			usage.short(std.err)
		} else {
			fmt.Fprintln(std.err)
			usage.usage(std.err)
		}
		return exitUsage
	case errors.As(err, &failures):
		fmt.Fprintf(std.err, "%s: %v\n", prefix, failures)
		return exitFailures
	case errors.As(err, &notJudged):
		fmt.Fprintf(std.err, "%s: %v\n", prefix, notJudged)
		return exitNotJudged
	default:
		fmt.Fprintf(std.err, "%s: %s\n", prefix, undoubled(name, err.Error()))
		return exitHarness
	}
}

// undoubled drops a leading "name: " from a command's error message, which
// the prefix "replaycheck name: " already says.
func undoubled(name, msg string) string {
	if name == "" {
		return msg
	}
	return strings.TrimPrefix(msg, name+": ")
}

// cellsNotJudged words incomplete for error cells, one and many.
var cellsNotJudged = [2]string{
	"cell could not be judged (error): its detail names the bad input",
	"cells could not be judged (error): their details name the bad input",
}
