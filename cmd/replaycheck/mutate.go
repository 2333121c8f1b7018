package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/mutate"
)

func runMutate(ctx context.Context, std *streams, args []string) error {
	f := newFlags("mutate", "mutate [--matrix FILE] [--format text|markdown|json] [--min-score PERCENT] [--cassettes DIR] [--providers DIR]",
		"Make every single-edit mutant of the route table (drop or add a carrier, drop an\n"+
			"entry or a rule, reorder first-match-wins rules, flip a boolean, change an enum,\n"+
			"move a threshold, change a flag value, merge or split a Responses family) and\n"+
			"judge each through the gate's evaluation against the committed cassettes:\n"+
			"killed (a regression is named), noticed (cells change, none regresses), survived\n"+
			"(no cell changes, but some route's decision does), unverified (a changed cell has\n"+
			"no recorded answer) or equivalent (no route the table can be reached by decides\n"+
			"differently). Prints every survivor with its matrix.yaml line, the edit and the\n"+
			"route it changes unseen, the entries no target or alias reaches, and the score:\n"+
			"killed or noticed over the mutants that are neither equivalent nor refused by the\n"+
			"loader. A survivor the table declares (survivors: in matrix.yaml) is listed with\n"+
			"the recording nobody has published that would kill it; a declaration whose mutant\n"+
			"does not survive is stale and exits 1. --min-score exits 1 under the threshold.")
	format := f.String("format", "text", "print the report as `FORMAT`: "+strings.Join(mutate.Formats, ", "))
	minScore := f.Float64("min-score", 0, "exit 1 when the score is under `PERCENT`")
	cassettes := f.String("cassettes", "cassettes", "the cassette `DIR`")
	profilesDir := f.String("providers", "providers", "the provider profiles `DIR` (embedded profiles when absent)")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := f.atMost(pos, 0); err != nil {
		return err
	}
	write, ok := mutate.Writer(*format)
	if !ok {
		return f.usagef("--format %q: unknown format (want %s)", *format, strings.Join(mutate.Formats, ", "))
	}
	if *minScore < 0 || *minScore > 100 {
		return f.usagef("--min-score %v: want a percentage from 0 to 100", *minScore)
	}
	src, err := os.ReadFile(f.matrix)
	if err != nil {
		return fmt.Errorf("matrix: %w", err)
	}
	base, err := matrix.Parse(f.matrix, src)
	if err != nil {
		return err
	}
	profiles, err := loadProfiles(*profilesDir)
	if err != nil {
		return err
	}
	var prog *progress
	rep, err := mutate.Run(ctx, base, src, mutate.Options{Profiles: profiles, CassetteDir: *cassettes,
		Progress: func(m mutate.Judged, total int) {
			if prog == nil {
				prog = newProgress(std.err, total)
				prog.coarse, prog.verb, prog.unit = true, "mutate", "mutants"
			}
			prog.tick(fmt.Sprintf("%s:%d", f.matrix, m.Line), string(m.Outcome))
		}})
	if prog != nil {
		prog.done()
	}
	if err != nil {
		return err
	}
	if err := write(std.out, rep); err != nil {
		return err
	}
	if score := rep.Percent(); score < *minScore {
		seen, total := rep.Score()
		return &failuresError{n: total - seen, what: fmt.Sprintf("mutants not seen: score %.1f%% is under --min-score %v", score, *minScore)}
	}
	if len(rep.Stale) > 0 {
		return &failuresError{n: len(rep.Stale), what: "stale survivor declarations: their mutants do not survive (remove them from survivors:)"}
	}
	return nil
}
