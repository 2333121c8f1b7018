package main

import (
	"fmt"
	"io"
	"strings"
)

// A notRecorded is a cell a record run did not write, and why in a few
// words; its old cassette, if any, is as it was.
type notRecorded struct {
	cell, why string
}

// cellsNotRecorded words incomplete for the cells a record run did not
// write.
var cellsNotRecorded = [2]string{"cell not recorded", "cells not recorded"}

// sayNotRecorded prints the summary of the cells a run did not write:
// each with why, then those never started once the request cap was
// reached. It prints nothing when every cell was written.
func sayNotRecorded(w io.Writer, failed []notRecorded, notStarted []string) {
	n := len(failed) + len(notStarted)
	switch n {
	case 0:
		return
	case 1:
		fmt.Fprintln(w, "record: 1 cell not recorded (its cassette is as it was):")
	default:
		fmt.Fprintf(w, "record: %d cells not recorded (their cassettes are as they were):\n", n)
	}
	for _, f := range failed {
		fmt.Fprintf(w, "  %s: %s\n", f.cell, f.why)
	}
	if len(notStarted) > 0 {
		fmt.Fprintf(w, "  not started, the request cap reached: %s\n", strings.Join(notStarted, ", "))
	}
}
