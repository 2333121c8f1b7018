package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
)

// commandFlags is one command's flag set, with the synopsis and the
// description its usage prints. Every command gets --matrix.
type commandFlags struct {
	*flag.FlagSet
	synopsis string
	about    string
	matrix   string
}

func newFlags(name, synopsis, about string) *commandFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := &commandFlags{FlagSet: fs, synopsis: synopsis, about: about}
	fs.StringVar(&f.matrix, "matrix", "matrix.yaml", "the route table `FILE`")
	return f
}

// usage prints the synopsis, the description and the flags, sorted.
func (f *commandFlags) usage(w io.Writer) {
	fmt.Fprintf(w, "usage: replaycheck %s\n\n%s\n\nflags:\n", f.synopsis, f.about)
	type row struct{ left, right string }
	var rows []row
	width := 0
	f.VisitAll(func(fl *flag.Flag) {
		arg, text := flag.UnquoteUsage(fl)
		left := "--" + fl.Name
		if arg != "" {
			left += " " + arg
		}
		if fl.DefValue != "" && fl.DefValue != "false" {
			text += fmt.Sprintf(" (default %s)", fl.DefValue)
		}
		rows = append(rows, row{left, text})
		width = max(width, len(left))
	})
	for _, r := range rows {
		fmt.Fprintf(w, "  %-*s  %s\n", width, r.left, r.right)
	}
}

// parse parses flags and positional arguments in any order ("ID --json"
// as well as "--json ID"); everything after "--" is positional.
func (f *commandFlags) parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := f.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, &helpRequest{usage: f.usage}
			}
			return nil, f.usageErr(err)
		}
		rest := f.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// usageErr wraps err as a usage error printing this command's synopsis,
// with a hint for a mistyped flag.
func (f *commandFlags) usageErr(err error) error {
	return &usageError{usage: f.usage, short: f.shortUsage, hint: flagHint(f.FlagSet, err), err: err}
}

// shortUsage prints the synopsis and where the flags are listed.
func (f *commandFlags) shortUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: replaycheck %s\nRun 'replaycheck %s -h' for every flag.\n", f.synopsis, f.Name())
}

// usagef is usageErr with a formatted message.
func (f *commandFlags) usagef(format string, args ...any) error {
	return f.usageErr(fmt.Errorf(format, args...))
}

// atMost refuses more than n positional arguments.
func (f *commandFlags) atMost(pos []string, n int) error {
	if len(pos) > n {
		return f.usagef("unexpected argument %q", pos[n])
	}
	return nil
}

// loadMatrix loads the route table named by --matrix, saying what a route
// table is when there is none where it looks.
func (f *commandFlags) loadMatrix() (*matrix.File, error) {
	m, err := matrix.Load(f.matrix)
	if err != nil && errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w%s", err, matrixHint(f.matrix))
	}
	return m, err
}

// A listFlag is a comma-separated list flag; repeating the flag adds to
// the list.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}

// routeFlags are the flags that name a route (SPEC §2).
type routeFlags struct {
	provider, baseURL, model, apiMode string
	echoOptIn                         bool
}

func (r *routeFlags) register(f *commandFlags) {
	f.StringVar(&r.provider, "provider", "", "provider id `P` (required)")
	f.StringVar(&r.baseURL, "base-url", "", "base `URL` of the endpoint (required)")
	f.StringVar(&r.model, "model", "", "model id `M` (required)")
	f.StringVar(&r.apiMode, "api-mode", "chat", "api `MODE`: chat, anthropic, bedrock-converse, gemini or responses")
	f.BoolVar(&r.echoOptIn, "echo-opt-in", false, "the provider opted in to the reasoning_content echo")
}

// route validates the route flags.
func (r *routeFlags) route(f *commandFlags) (engine.Route, error) {
	var missing []string
	for _, m := range []struct{ name, v string }{{"--provider", r.provider}, {"--base-url", r.baseURL}, {"--model", r.model}} {
		if strings.TrimSpace(m.v) == "" {
			missing = append(missing, m.name)
		}
	}
	if len(missing) > 0 {
		return engine.Route{}, f.usagef("missing required %s", strings.Join(missing, ", "))
	}
	mode, ok := engine.ParseAPIMode(r.apiMode)
	if !ok {
		return engine.Route{}, f.usagef("--api-mode %q: unknown api mode (want chat, anthropic, bedrock-converse, gemini or responses)", r.apiMode)
	}
	rt := engine.Route{APIMode: mode, Provider: r.provider, BaseURL: r.baseURL, Model: r.model, EchoOptIn: r.echoOptIn}
	if rt.Host() == "" {
		return engine.Route{}, f.usagef("--base-url %q: no hostname in it", r.baseURL)
	}
	return rt, nil
}
