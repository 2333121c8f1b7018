package main

import (
	"context"
	"io"
	"os"
)

func main() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// streams are a command's standard input, output and error.
type streams struct {
	in  io.Reader
	out io.Writer
	err io.Writer
}

// Main runs the command line args (without the program name) and returns
// the exit code. It never exits the process, so tests call it directly.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	std := &streams{in: stdin, out: stdout, err: stderr}
	name, err := dispatch(context.Background(), std, args)
	return exitCode(std, name, err)
}
