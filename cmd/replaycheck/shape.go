package main

import (
	"context"
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/dialects"
)

func runShape(_ context.Context, std *streams, args []string) error {
	f := newFlags("shape",
		"shape --provider P --base-url URL --model M [--api-mode MODE] [--session FILE] [--echo-opt-in] [--stream] [--indent|--compact]",
		"Shape reads a session (an object with \"messages\" and an optional\n"+
			"\"model_config\", or a bare array of messages; standard input when no\n"+
			"--session or \"-\"), decides the route with the table and the session's\n"+
			"recorded rejections, and prints the request body the api mode's dialect\n"+
			"would send: indented, or on one line from 1 MiB (--indent and --compact\n"+
			"choose). Opaque strings keep their exact bytes.")
	var rf routeFlags
	rf.register(f)
	sessionPath := f.String("session", "", "the session `FILE` (default standard input)")
	stream := f.Bool("stream", false, "shape a streaming request")
	var layout jsonLayout
	layout.register(f)
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := layout.check(f); err != nil {
		return err
	}
	if err := f.atMost(pos, 0); err != nil {
		return err
	}
	route, err := rf.route(f)
	if err != nil {
		return err
	}
	mf, err := f.loadMatrix()
	if err != nil {
		return err
	}
	dia, err := dialects.For(route.APIMode, &mf.Table)
	if err != nil {
		return err
	}
	b, name, err := readInput(std, *sessionPath)
	if err != nil {
		return err
	}
	quoted := new(engine.QuotedStrings)
	sess, err := engine.ParseSessionQuoted(b, quoted)
	if err != nil {
		// Only a document that does not parse is checked for its syntax,
		// to name the line and column.
		if err := checkJSON(name, b); err != nil {
			return err
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	d := mf.Table.Decide(route, sess.Config.RejectedFor(route.Key()))
	body, err := dia.Shape(sess, d, engine.Request{Stream: *stream, Quoted: quoted})
	if err != nil {
		return fmt.Errorf("%s: shape for %s %s: %w", name, route.APIMode, route.Host(), err)
	}
	if err := layout.write(std.out, body); err != nil {
		return fmt.Errorf("%s: shaped body for %s %s is not valid JSON: %w", name, route.APIMode, route.Host(), err)
	}
	return nil
}
