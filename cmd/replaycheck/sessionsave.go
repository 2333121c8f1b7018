package main

import (
	"context"
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/store"
)

func runSessionSave(ctx context.Context, std *streams, args []string) error {
	f := newFlags("session save",
		"session save --db FILE [--id ID] SESSION.json|-",
		"Session save stores a session given in the storage JSON form (the form\n"+
			"shape --session reads and session show --json prints) in a session\n"+
			"store, creating the file when it does not exist. A session already in\n"+
			"the store under the same id is extended: the file's messages must begin\n"+
			"with the stored ones. --id stores it under another id.")
	db := f.String("db", "", "the session store `FILE` (required; created when missing)")
	id := f.String("id", "", "store the session under this `ID` (default: the file's id)")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := f.atMost(pos, 1); err != nil {
		return err
	}
	switch {
	case *db == "":
		return f.usagef("missing required --db")
	case len(pos) == 0:
		return f.usagef("missing the session file (or - for standard input)")
	}
	b, name, err := readInput(std, pos[0])
	if err != nil {
		return err
	}
	if err := checkJSON(name, b); err != nil {
		return err
	}
	sess, err := engine.ParseSession(b)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if *id != "" {
		sess.ID = *id
	}
	if sess.ID == "" {
		return f.usagef("%s has no id: give one with --id", name)
	}
	st, err := store.Open(*db)
	if err != nil {
		return err
	}
	if err := st.Save(ctx, sess); err != nil {
		st.Close()
		return err
	}
	if err := st.Close(); err != nil {
		return err
	}
	fmt.Fprintf(std.out, "saved session %s (%d messages) in %s\n", sess.ID, len(sess.Messages), *db)
	return nil
}
