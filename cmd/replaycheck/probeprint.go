package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/probe"
	"github.com/replaycheck/replaycheck/report"
)

// writeProbe writes what a probe proposes beside its cassettes: the draft
// profile at <out>/providers/<target>.yaml, where it can be copied into
// providers/ as it is, and the proposal as data at <out>/adopt.yaml.
func writeProbe(res *probe.Result, out string) error {
	profile, err := res.ProfileYAML()
	if err != nil {
		return err
	}
	path := filepath.Join(out, "providers", res.Target.ID+".yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, []byte(profile), 0o644); err != nil {
		return err
	}
	return probe.WriteAdoption(out, res.Adoption())
}

// printProbe prints the findings with their evidence, the proposal, the
// draft profile, the target's column under the proposal, and how to adopt
// it.
func printProbe(w io.Writer, res *probe.Result, out string) error {
	id := res.Target.ID
	fmt.Fprintf(w, "probe %s: %d requests sent, %d interactions recorded (%s) under %s\n\n", id, res.Sent, res.Interactions, res.Provenance, out)
	for _, n := range res.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if len(res.Notes) > 0 {
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "findings, each with the recorded variants that show it:")
	for _, f := range res.Findings {
		fmt.Fprintf(w, "  %s\n", f)
	}
	fmt.Fprintln(w)
	if res.Target.Route.APIMode == engine.ModeChat {
		printCarriers(w, res)
	}
	if len(res.Signed) > 0 {
		fmt.Fprintf(w, "signed or opaque reasoning in: %s\n", strings.Join(res.Signed, ", "))
	} else {
		fmt.Fprintln(w, "signed or opaque reasoning: none")
	}
	profile, err := res.ProfileYAML()
	if err != nil {
		return err
	}
	profilePath := filepath.Join(out, "providers", id+".yaml")
	fmt.Fprintf(w, "\nproposed matrix.yaml target:\n%s\nproposed route table change:\n%s\n", res.TargetYAML(), res.RouteYAML())
	fmt.Fprintf(w, "draft provider profile (%s; every rule unconfirmed until checked against the provider's docs):\n%s\n", profilePath, profile)
	fmt.Fprintf(w, "its column of the matrix under the proposal (every scenario the draft profile says applies: %s):\n", strings.Join(res.Scenarios, ", "))
	if err := report.WriteTable(w, res.Column, false); err != nil {
		return err
	}
	printAdopt(w, res, out)
	return nil
}

// printCarriers prints the chat verdicts per carrier.
func printCarriers(w io.Writer, res *probe.Result) {
	carriers := func(pick func(engine.Carrier) bool) string {
		var names []string
		for _, c := range engine.AllCarriers {
			if pick(c) {
				names = append(names, string(c))
			}
		}
		if len(names) == 0 {
			return "none"
		}
		return strings.Join(names, ", ")
	}
	fmt.Fprintf(w, "accepted on an assistant message: %s\n", carriers(func(c engine.Carrier) bool { return res.Accepted[c] }))
	if res.ReadObservable {
		fmt.Fprintf(w, "read (the answer changed with it): %s\n", carriers(func(c engine.Carrier) bool { return res.Read[c] }))
	} else {
		fmt.Fprintln(w, "read (the answer changed with it): cannot be told (no answer states an earlier conclusion)")
	}
	for _, c := range engine.AllCarriers {
		if r, ok := res.Refused[c]; ok {
			fmt.Fprintf(w, "refused %s: %d %s\n", c, r.Status, r.Body)
		}
	}
	switch {
	case res.MustEcho && res.BlankIsMissing:
		fmt.Fprintf(w, "must echo: a bare tool turn without reasoning_content was refused (%d %s); the pad was accepted; \"\" was refused too\n", res.MustEchoRefusal.Status, res.MustEchoRefusal.Body)
	case res.MustEcho:
		fmt.Fprintf(w, "must echo: a bare tool turn without reasoning_content was refused (%d %s); the pad was accepted\n", res.MustEchoRefusal.Status, res.MustEchoRefusal.Body)
	default:
		fmt.Fprintln(w, "must echo: no")
	}
}

// printAdopt says how to adopt the proposal: mechanically, or by hand.
func printAdopt(w io.Writer, res *probe.Result, out string) {
	id := res.Target.ID
	fmt.Fprintf(w, "\nto adopt the proposal, from the repository's root:\n")
	fmt.Fprintf(w, "  replaycheck adopt %s\n", out)
	fmt.Fprintf(w, "which applies %s: it copies %s into providers/ and %s/%s/*.yaml into cassettes/%s/,\n",
		filepath.Join(out, probe.AdoptFile), filepath.Join(out, "providers", id+".yaml"), out, id, id)
	fmt.Fprintf(w, "adds the target above to matrix.yaml's targets and makes the route table change above; then\n")
	fmt.Fprintf(w, "  replaycheck run --target %s\n", id)
	fmt.Fprintf(w, "judges the %d cells of its column from the copied cassettes.", len(res.Scenarios))
	if len(res.Evidence) > 0 {
		fmt.Fprintf(w, " %s/%s/%s/ holds the battery recorded only as evidence (%s): keep it with the proposal, do not copy it into cassettes/.",
			out, probe.EvidenceDir, id, strings.Join(res.Evidence, ", "))
	}
	fmt.Fprintln(w)
}

// columnVerdict is the probe's exit: a failing cell under the proposal
// fails (exit 1), an unverified one is not judged (exit 4).
func columnVerdict(res *probe.Result) error {
	var failed, unverified int
	for _, c := range res.Column.Cells {
		switch c.Status {
		case report.StatusFail, report.StatusError:
			failed++
		case report.StatusUnverified:
			unverified++
		}
	}
	switch {
	case failed > 0:
		return &failuresError{n: failed, what: "cells of the column fail under the proposal: adopting it as it is would fail run"}
	case unverified > 0:
		return &notJudgedError{msg: fmt.Sprintf("%d cells of the column are unverified under the proposal", unverified)}
	}
	return nil
}
