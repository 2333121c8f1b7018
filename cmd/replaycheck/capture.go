package main

import (
	"bytes"
	"context"
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/dialects"
)

func runCapture(_ context.Context, std *streams, args []string) error {
	f := newFlags("capture",
		"capture [--api-mode MODE] [--stream] [FILE]",
		"Capture reads a response body (with --stream, the streamed response:\n"+
			"SSE, or AWS event-stream frames for bedrock-converse) from FILE, or\n"+
			"standard input when FILE is absent or \"-\", and prints the stored\n"+
			"assistant message it becomes, with every carrier, as indented JSON in\n"+
			"its storage form.")
	apiMode := f.String("api-mode", "chat", "api `MODE`: chat, anthropic, bedrock-converse, gemini or responses")
	stream := f.Bool("stream", false, "the input is a streamed response")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := f.atMost(pos, 1); err != nil {
		return err
	}
	mode, ok := engine.ParseAPIMode(*apiMode)
	if !ok {
		return f.usagef("--api-mode %q: unknown api mode (want chat, anthropic, bedrock-converse, gemini or responses)", *apiMode)
	}
	// Capture reads no route data, so the zero table serves.
	dia, err := dialects.For(mode, &engine.Table{})
	if err != nil {
		return err
	}
	path := ""
	if len(pos) == 1 {
		path = pos[0]
	}
	b, name, err := readInput(std, path)
	if err != nil {
		return err
	}
	var msg engine.Message
	if *stream {
		msg, err = dia.CaptureStream(bytes.NewReader(b))
	} else {
		if err := checkJSON(name, b); err != nil {
			return err
		}
		msg, err = dia.Capture(b)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return writeJSON(std.out, msg)
}
