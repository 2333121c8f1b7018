package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/replaycheck/replaycheck/gate"
	"github.com/replaycheck/replaycheck/matrix"
)

func runGate(ctx context.Context, std *streams, args []string) error {
	f := newFlags("gate", "gate [--base FILE|GIT-REF] [--head FILE] [--format text|markdown|json|github] [--summary FILE]",
		"Evaluate a base and a head route table against the same committed cassettes and print\n"+
			"the cells that changed. Exit 1 on any regression: a cell that passed and now fails or\n"+
			"is unverified, named with its target, scenario, the route change and the provider's\n"+
			"recorded error. Improvements are listed, not failed. Exit 3 when a cell could not be\n"+
			"judged (an unreadable cassette). --base is a file, or a git ref whose matrix.yaml is\n"+
			"read with git show (default HEAD); --head defaults to --matrix. --format github prints\n"+
			"workflow commands: an ::error annotation on the head table's line of each regressed\n"+
			"target. --summary appends the Markdown form to a file ($GITHUB_STEP_SUMMARY in CI).")
	base := f.String("base", "HEAD", "the base table: a `FILE` or a git ref")
	head := f.String("head", "", "the head table `FILE` (default: --matrix)")
	format := f.String("format", "text", "print the result as `FORMAT`: "+strings.Join(gate.Formats, ", "))
	summary := f.String("summary", "", "also append the result as Markdown to `FILE`")
	cassettes := f.String("cassettes", "cassettes", "the cassette `DIR`")
	profilesDir := f.String("providers", "providers", "the provider profiles `DIR` (embedded profiles when absent)")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := f.atMost(pos, 0); err != nil {
		return err
	}
	write, ok := gate.Writer(*format)
	if !ok {
		return f.usagef("--format %q: unknown format (want %s)", *format, strings.Join(gate.Formats, ", "))
	}
	headPath := *head
	if headPath == "" {
		headPath = f.matrix
	}
	headFile, err := matrix.Load(headPath)
	if err != nil {
		return err
	}
	baseFile, err := loadBase(ctx, *base, headPath)
	if err != nil {
		return err
	}
	profiles, err := loadProfiles(*profilesDir)
	if err != nil {
		return err
	}
	res, err := gate.Evaluate(ctx, baseFile, headFile, profiles, *cassettes)
	if err != nil {
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
	if n := res.NotJudged(); n > 0 {
		return incomplete(n, cellsNotJudged[0], cellsNotJudged[1])
	}
	if n := len(res.Regressions()); n > 0 {
		return &failuresError{n: n, what: "cells regressed"}
	}
	return nil
}

// loadBase reads the base table from a file, or from git when base is not
// a file.
func loadBase(ctx context.Context, base, headPath string) (*matrix.File, error) {
	if _, err := os.Stat(base); err == nil {
		return matrix.Load(base)
	}
	out, err := exec.CommandContext(ctx, "git", "show", base+":"+strings.TrimPrefix(headPath, "./")).Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		return nil, fmt.Errorf("gate: --base %q is neither a file nor a git ref with %s: %s", base, headPath, msg)
	}
	return matrix.Parse(base+":"+headPath, out)
}

// appendSummary appends the Markdown form of res to path, creating it.
func appendSummary(path string, res *gate.Result) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("gate: --summary: %w", err)
	}
	if err := gate.WriteMarkdown(f, res); err != nil {
		f.Close()
		return fmt.Errorf("gate: --summary %s: %w", path, err)
	}
	return f.Close()
}
