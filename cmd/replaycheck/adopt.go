package main

import (
	"context"
	"fmt"

	"github.com/replaycheck/replaycheck/probe"
)

func runAdopt(ctx context.Context, std *streams, args []string) error {
	f := newFlags("adopt", "adopt [--matrix FILE] [--cassettes DIR] [--providers DIR] PROBE_DIR",
		"Adopt applies what `replaycheck probe --out PROBE_DIR` proposes, as written in\n"+
			"PROBE_DIR/adopt.yaml: it copies the draft profile into the providers DIR and the\n"+
			"target's cassettes into the cassette DIR, adds the target to the route table\n"+
			"FILE and makes the proposed route-table change, editing the file's text so that\n"+
			"every comment stays. Nothing is written unless all of it applies: the edited\n"+
			"table must load, and neither the target, its cassettes nor its profile may\n"+
			"exist yet. Then `replaycheck run --target ID` judges the target's column.")
	cassettes := f.String("cassettes", "cassettes", "the cassette `DIR` the target's cassettes go to")
	providersDir := f.String("providers", "providers", "the provider profiles `DIR` the draft profile goes to")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := f.atMost(pos, 1); err != nil {
		return err
	}
	if len(pos) == 0 {
		return f.usagef("missing PROBE_DIR: the --out directory of the probe to adopt")
	}
	a, err := probe.ReadAdoption(pos[0])
	if err != nil {
		return err
	}
	if _, err := probe.Adopt(pos[0], a, f.matrix, *cassettes, *providersDir); err != nil {
		return err
	}
	fmt.Fprintf(std.out, "adopted %s from %s:\n", a.Target, pos[0])
	fmt.Fprintf(std.out, "  wrote %s/%s.yaml\n", *providersDir, a.Target)
	for _, c := range a.Cassettes {
		fmt.Fprintf(std.out, "  wrote %s/%s\n", *cassettes, c)
	}
	for _, e := range a.Edits {
		switch {
		case e.Join != "":
			fmt.Fprintf(std.out, "  edited %s: %s %s: %s += %v\n", f.matrix, e.List, e.Join, e.Field, e.Values)
		default:
			fmt.Fprintf(std.out, "  edited %s: %s += %s\n", f.matrix, e.List, e.Item)
		}
	}
	fmt.Fprintf(std.out, "check it with: replaycheck run --target %s\n", a.Target)
	return nil
}
