package main

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// A command is one subcommand of replaycheck.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, io *streams, args []string) error
}

// commands is the explicit list of subcommands, in help order.
var commands = []command{
	{"run", "replay the cassettes through every scenario and print the matrix", runRun},
	{"gate", "fail on route-table changes that break a recorded cell", runGate},
	{"mutate", "score how many single edits of the route table the gate sees", runMutate},
	{"probe", "record a new provider, infer what it accepts, propose its row", runProbe},
	{"adopt", "apply a probe's proposal: its target, cassettes, profile and row", runAdopt},
	{"record", "record cassettes: every wire variant of a target's scenarios", runRecord},
	{"import", "import other projects' recordings as evidence cassettes", runImport},
	{"serve", "run a provider profile's simulator on loopback", runServe},
	{"agent", "check an unmodified agent: play its provider, judge its requests", runAgent},
	{"connector", "serve the reference engine over the engine protocol (stdin/stdout)", runConnector},
	{"lint", "check cassettes: provenance, coverage, no credentials", runLint},
	{"explain", "show the route decision for a route, and why", runExplain},
	{"shape", "print the request body a session becomes on a route", runShape},
	{"capture", "print the stored assistant message a response becomes", runCapture},
	{"session", "inspect a session store: session show", runSession},
}

func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// dispatch routes args to a command and returns the command's name (for
// error messages) and its error.
func dispatch(ctx context.Context, std *streams, args []string) (string, error) {
	if len(args) == 0 {
		return "", &usageError{usage: topUsage, err: fmt.Errorf("no command given")}
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		return "help", runHelp(ctx, std, args[1:])
	case "version", "-version", "--version":
		return "version", runVersion(std)
	}
	c, ok := lookup(args[0])
	if !ok {
		return "", unknownCommand(args[0])
	}
	return c.name, c.run(ctx, std, args[1:])
}

// unknownCommand is the usage error of a command name that is none, with
// the nearest command as a hint.
func unknownCommand(name string) error {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	hint := ""
	if s := suggest(name, names); s != "" {
		hint = "did you mean " + s + "?"
	}
	return &usageError{usage: topUsage, hint: hint, err: fmt.Errorf("unknown command %q", name),
		short: func(w io.Writer) { fmt.Fprintln(w, "Run 'replaycheck help' for the commands.") }}
}

// runHelp prints the command list, or one command's usage.
func runHelp(ctx context.Context, std *streams, args []string) error {
	if len(args) == 0 {
		topUsage(std.out)
		return nil
	}
	c, ok := lookup(args[0])
	if !ok {
		return unknownCommand(args[0])
	}
	return c.run(ctx, std, append(args[1:len(args):len(args)], "-h"))
}

// topUsage prints the synopsis and the command list.
func topUsage(w io.Writer) {
	fmt.Fprint(w, "usage: replaycheck <command> [flags] [args]\n\n"+
		"replaycheck checks a reasoning-replay route table (matrix.yaml) against\n"+
		"what providers accept.\n\ncommands:\n")
	width := 0
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.name, c.summary)
	}
	fmt.Fprint(w, "\n"+strings.Join([]string{
		"Run 'replaycheck help <command>' or 'replaycheck <command> -h' for a command's flags.",
		"Every command takes --matrix FILE (default matrix.yaml). 'replaycheck --version' prints the version.",
		"Exit codes: 0 ok, 1 conformance failures, 2 usage error, 3 harness error or bad input,",
		"4 cells not judged (unverified: the cassettes hold no answer to a request sent).",
	}, "\n")+"\n")
}
