package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/replaycheck/replaycheck/gate"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
)

func runGate(ctx context.Context, std *streams, args []string) error {
	f := newFlags("gate", "gate [--base FILE|GIT-REF] [--head FILE]",
		"Evaluate a base and a head route table against the same committed cassettes and print\n"+
			"the cells that changed. Exit 1 on any regression: a cell that passed and now fails or\n"+
			"is unverified, named with its target, scenario, the route change and the provider's\n"+
			"recorded error. Improvements are listed, not failed. --base is a file, or a git ref\n"+
			"whose matrix.yaml is read with git show (default HEAD); --head defaults to --matrix.")
	base := f.String("base", "HEAD", "the base table: a `FILE` or a git ref")
	head := f.String("head", "", "the head table `FILE` (default: --matrix)")
	cassettes := f.String("cassettes", "cassettes", "the cassette `DIR`")
	profilesDir := f.String("providers", "providers", "the provider profiles `DIR` (embedded profiles when absent)")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := f.atMost(pos, 0); err != nil {
		return err
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
	printGate(std.out, baseFile.Path, headFile.Path, res)
	if n := res.Head.Counts()[report.StatusError] + res.Base.Counts()[report.StatusError]; n > 0 {
		return &notJudgedError{n: n}
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

func printGate(w io.Writer, basePath, headPath string, res *gate.Result) {
	fmt.Fprintf(w, "gate: %s -> %s: %d cells changed\n", basePath, headPath, len(res.Changes))
	for _, kind := range []string{gate.Regression, gate.Improvement, gate.Changed} {
		for _, c := range res.Changes {
			if c.Kind != kind {
				continue
			}
			fmt.Fprintf(w, "%-11s %s/%s: %s -> %s\n", strings.ToUpper(kind), c.Target, c.Scenario, c.Base.Status, c.Head.Status)
			fmt.Fprintf(w, "            route change: %s\n", c.Field)
			if c.Head.Detail != "" {
				fmt.Fprintf(w, "            %s\n", c.Head.Detail)
			}
			if c.Head.ProviderError != "" {
				fmt.Fprintf(w, "            provider error: %s\n", c.Head.ProviderError)
			}
			if c.Head.Status == "unverified" && c.Head.Expected != "" {
				fmt.Fprintf(w, "            %s\n", strings.ReplaceAll(c.Head.Expected, "\n", "\n            "))
			}
		}
	}
	regressions := len(res.Regressions())
	if regressions == 0 {
		fmt.Fprintln(w, "gate: no regression")
	} else {
		fmt.Fprintf(w, "gate: %d regression(s)\n", regressions)
	}
}
