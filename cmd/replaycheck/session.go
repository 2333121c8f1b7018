package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/replaycheck/replaycheck/engine/store"
)

// sessionUsage lists the session subcommands.
func sessionUsage(w io.Writer) {
	fmt.Fprint(w, "usage: replaycheck session <subcommand> [flags]\n\n"+
		"subcommands:\n"+
		"  show  list the sessions of a store, or show one turn by turn\n"+
		"  save  store a session JSON file in a store (created when missing)\n")
}

func runSession(ctx context.Context, std *streams, args []string) error {
	if len(args) == 0 {
		return &usageError{usage: sessionUsage, err: fmt.Errorf("no subcommand given")}
	}
	switch args[0] {
	case "-h", "-help", "--help":
		return &helpRequest{usage: sessionUsage}
	case "show":
		return runSessionShow(ctx, std, args[1:])
	case "save":
		return runSessionSave(ctx, std, args[1:])
	}
	return &usageError{usage: sessionUsage, err: fmt.Errorf("unknown subcommand %q", args[0])}
}

func runSessionShow(ctx context.Context, std *streams, args []string) error {
	f := newFlags("session show",
		"session show --db FILE [ID] [--json [--indent|--compact]]",
		"Session show lists the sessions of a session store (id, messages, turns),\n"+
			"or shows one session turn by turn: each message with the carriers it\n"+
			"holds (readable text trimmed, opaque carriers as len=N sha256=<first 12\n"+
			"hex>) and the model config. A turn opens at each user message. With\n"+
			"--json, the list or the whole session (the document shape reads),\n"+
			"indented, or on one line from 1 MiB (--indent and --compact choose).")
	db := f.String("db", "", "the session store `FILE` (required)")
	asJSON := f.Bool("json", false, "print JSON instead of text")
	var layout jsonLayout
	layout.register(f)
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := layout.check(f); err != nil {
		return err
	}
	if err := f.atMost(pos, 1); err != nil {
		return err
	}
	if *db == "" {
		return f.usagef("missing required --db")
	}
	// Showing never creates or changes a file.
	if _, err := os.Stat(*db); err != nil {
		return err
	}
	st, err := store.OpenReadOnly(*db)
	if err != nil {
		return err
	}
	defer st.Close()
	if len(pos) == 0 {
		return listSessions(ctx, std, st, *asJSON, &layout)
	}
	sess, err := st.Load(ctx, pos[0])
	if err != nil {
		return err
	}
	if *asJSON {
		return layout.writeValue(std.out, sess)
	}
	return writeSession(std.out, sess)
}

func listSessions(ctx context.Context, std *streams, st *store.Store, asJSON bool, layout *jsonLayout) error {
	list, err := st.List(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		if list == nil {
			list = []store.Summary{}
		}
		return layout.writeValue(std.out, list)
	}
	tw := tabwriter.NewWriter(std.out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tMESSAGES\tTURNS")
	for _, s := range list {
		fmt.Fprintf(tw, "%s\t%d\t%d\n", s.ID, s.Messages, s.Turns)
	}
	return tw.Flush()
}
