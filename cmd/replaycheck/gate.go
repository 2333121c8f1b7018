package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/replaycheck/replaycheck/gate"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/mutate"
	"github.com/replaycheck/replaycheck/scenario"
)

func runGate(ctx context.Context, std *streams, args []string) error {
	f := newFlags("gate", "gate [--base FILE|GIT-REF] [--head FILE] [--cassettes DIR] [--format text|markdown|json|github] [--summary FILE]\n"+
		"       gate --engine CMD --baseline FILE [--cassettes DIR] [--format text|json]",
		"Evaluate a base and a head route table against the same committed cassettes and print\n"+
			"the cells that changed. Exit 1 on any regression: a cell that passed and now fails or\n"+
			"is unverified, named with its target, scenario, the route change and the provider's\n"+
			"recorded error; a cell of a target or alias the head adds that fails or is unverified;\n"+
			"or a match entry of the head table that no target or alias reaches (lint's coverage\n"+
			"check). Improvements and added cells are listed, not failed; so are the routes whose\n"+
			"decision changes with no target or alias to judge them, and the targets removed.\n"+
			"Exit 3 when the cassette directory is missing, holds no cassette for a target the head\n"+
			"judges, or a cell could not be judged (an unreadable cassette: each is named with its\n"+
			"file and position); exit 4 when a cell the edit did not change is unverified.\n"+
			"--base is a file, or a git ref whose copy of the head table is read with git show\n"+
			"(default HEAD); --head defaults to --matrix. --format github prints workflow commands:\n"+
			"an annotation on each edited line of the head table, an ::error on the line of each\n"+
			"regressed target or alias and of each entry nothing reaches, and on a head table that\n"+
			"does not load. --summary appends the Markdown form to a file ($GITHUB_STEP_SUMMARY).\n\n"+
			"For an agent whose route table is code, --engine CMD runs the implementation over the\n"+
			"protocol on the committed cassettes and --baseline FILE is what it is held to: its\n"+
			"expectations file (every cell failing unexpectedly, for another cause, or passing\n"+
			"where a failure was expected regresses) or a matrix it printed before (run --engine\n"+
			"--format json: a cell that fails and did not, or is not judged and was, regresses;\n"+
			"one that failed and passes is listed as improved). Exit 1 on any regression.")
	base := f.String("base", "HEAD", "the base table: a `FILE` or a git ref")
	head := f.String("head", "", "the head table `FILE` (default: --matrix)")
	format := f.String("format", "text", "print the result as `FORMAT`: "+strings.Join(gate.Formats, ", "))
	summary := f.String("summary", "", "also append the result as Markdown to `FILE`")
	cassettes := f.String("cassettes", "cassettes", "the cassette `DIR`")
	profilesDir := f.String("providers", "providers", "the provider profiles `DIR` (embedded profiles when absent)")
	baseline := f.String("baseline", "", "with --engine: the expectations `FILE`, or a matrix JSON, the implementation is held to")
	var eng engineFlags
	eng.register(f)
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := f.atMost(pos, 0); err != nil {
		return err
	}
	set := map[string]bool{}
	f.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case eng.command != "" && *baseline == "":
		return f.usagef("--engine: name the --baseline FILE the implementation is held to (its expectations, or a matrix it printed with run --engine --format json)")
	case eng.command == "" && *baseline != "":
		return f.usagef("--baseline holds an --engine implementation: name it with --engine CMD")
	case eng.command != "" && (set["base"] || set["head"] || set["summary"]):
		return f.usagef("--engine judges an implementation against --baseline: --base, --head and --summary compare two route tables")
	case eng.command != "":
		return runEngineGate(ctx, std, f, eng, *baseline, *cassettes, *profilesDir, *format)
	}
	write, ok := gate.Writer(*format)
	if !ok {
		return f.usagef("--format %q: unknown format (want %s)", *format, strings.Join(gate.Formats, ", "))
	}
	headPath := *head
	if headPath == "" {
		headPath = f.matrix
	}
	res, err := evaluateGate(ctx, std.err, *base, headPath, *cassettes, *profilesDir)
	if err != nil {
		if *format == "github" {
			gate.WriteGitHubError(std.out, err)
		}
		return err
	}
	if err := write(std.out, res); err != nil {
		return err
	}
	if *summary != "" {
		if err := appendSummary(*summary, res); err != nil {
			return err
		}
	}
	switch {
	case res.Errors() > 0:
		return incomplete(res.Errors(), cellsNotJudged[0], cellsNotJudged[1])
	case len(res.Regressions())+len(res.Uncovered) > 0:
		n := len(res.Regressions()) + len(res.Uncovered)
		what := "regressions and table entries nothing reaches"
		switch {
		case len(res.Uncovered) == 0 && n == 1:
			what = "cell regressed"
		case len(res.Uncovered) == 0:
			what = "cells regressed"
		case len(res.Regressions()) == 0 && n == 1:
			what = "table entry no target or alias reaches"
		case len(res.Regressions()) == 0:
			what = "table entries no target or alias reaches"
		}
		return &failuresError{n: n, what: what}
	case len(res.NotJudged()) > 0:
		return &notJudgedError{msg: fmt.Sprintf("%d cell(s) not judged (unverified): the cassettes hold no answer to what the routes send", len(res.NotJudged()))}
	}
	return nil
}

// evaluateGate loads both tables and the profiles, judges the head against
// the base, and adds what no cell shows: the head's coverage findings, the
// routes whose decision changes with no cell to judge them, and the edited
// lines.
func evaluateGate(ctx context.Context, progressOut io.Writer, base, headPath, cassettes, profilesDir string) (*gate.Result, error) {
	headSrc, err := os.ReadFile(headPath)
	if err != nil {
		return nil, fmt.Errorf("matrix: %w%s", err, matrixHint(headPath))
	}
	headFile, err := matrix.Parse(headPath, headSrc)
	if err != nil {
		return nil, err
	}
	baseFile, baseSrc, err := loadBase(ctx, base, headPath)
	if err != nil {
		return nil, err
	}
	profiles, err := loadProfiles(profilesDir)
	if err != nil {
		return nil, err
	}
	cells := 0
	for _, t := range headFile.Targets {
		cells += (1 + len(t.Aliases)) * len(scenario.All())
	}
	prog := newProgress(progressOut, cells)
	prog.coarse, prog.verb = true, "gate"
	// What no cell shows is found while the cells replay.
	var uncovered []gate.Finding
	var unchecked []gate.RouteChange
	found := make(chan struct{})
	go func() {
		defer close(found)
		uncovered = coverage(headFile)
		unchecked = mutate.Unchecked(baseFile, headFile, profiles)
	}()
	res, err := gate.EvaluateWith(ctx, baseFile, headFile, profiles, cassettes, gate.Options{
		Same:     mutate.SameDecision(&baseFile.Table, &headFile.Table, profiles),
		Progress: prog.cell,
	})
	prog.done()
	<-found
	if err != nil {
		return nil, err
	}
	res.Uncovered, res.Unchecked = uncovered, unchecked
	res.Edits = gate.LineEdits(baseSrc, headSrc)
	return res, nil
}

// coverage returns lint's coverage findings of a table: each match entry
// no target or alias reaches and nothing declares unreachable, and each
// declaration of an entry that is reached after all.
func coverage(f *matrix.File) []gate.Finding {
	var out []gate.Finding
	for _, e := range mutate.Cover(f) {
		switch {
		case len(e.By) == 0 && e.Declared == nil:
			out = append(out, gate.Finding{Line: e.Entry.Line,
				Message: e.Entry.String() + ": no target or alias reaches this entry: add an alias (or a target) that does, or declare it under unreachable: with a reason"})
		case len(e.By) > 0 && e.Declared != nil:
			out = append(out, gate.Finding{Line: e.Declared.Line,
				Message: e.Entry.String() + " is declared unreachable, but " + strings.Join(e.By, ", ") + " reaches it: remove the declaration"})
		}
	}
	return out
}

// matrixHint says what a route table is when none is where it is looked
// for.
func matrixHint(path string) string {
	if _, err := os.Stat(path); err == nil {
		return ""
	}
	return ": replaycheck judges a route table with its targets (matrix.yaml: the one at the root of replaycheck's repository is the reference table to start from); run it where yours is, or name it with --matrix FILE"
}

// loadBase reads the base table from a file, or from git when base is not
// a file: the head table's path at that ref, resolved from the working
// directory as the head file is, and returns it with its source.
func loadBase(ctx context.Context, base, headPath string) (*matrix.File, []byte, error) {
	if _, err := os.Stat(base); err == nil {
		b, err := os.ReadFile(base)
		if err != nil {
			return nil, nil, fmt.Errorf("--base: %w", err)
		}
		f, err := matrix.Parse(base, b)
		return f, b, err
	}
	// "REF:./path" is resolved from the working directory, as the head
	// table is; "REF:path" would be resolved from the repository's root.
	rel := filepath.ToSlash(headPath)
	if !filepath.IsAbs(headPath) && !strings.HasPrefix(rel, "./") && !strings.HasPrefix(rel, "../") {
		rel = "./" + rel
	}
	out, err := exec.CommandContext(ctx, "git", "show", base+":"+rel).Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		return nil, nil, fmt.Errorf("--base %q is neither a file nor a git ref with %s: %s", base, headPath, msg)
	}
	f, err := matrix.Parse(base+":"+headPath, out)
	return f, out, err
}

// appendSummary appends the Markdown form of res to path, creating it.
func appendSummary(path string, res *gate.Result) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("--summary: %w", err)
	}
	if err := gate.WriteMarkdown(f, res); err != nil {
		f.Close()
		return fmt.Errorf("--summary %s: %w", path, err)
	}
	return f.Close()
}
