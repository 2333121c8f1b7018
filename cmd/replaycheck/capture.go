package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/dialects"
)

func runCapture(_ context.Context, std *streams, args []string) error {
	f := newFlags("capture",
		"capture [--api-mode MODE] [--stream] [--provider P --base-url URL --model M] [--indent|--compact] [FILE]",
		"Capture reads a response body (with --stream, the streamed response:\n"+
			"SSE, or AWS event-stream frames for bedrock-converse) from FILE, or\n"+
			"standard input when FILE is absent or \"-\", and prints the stored\n"+
			"assistant message it becomes, with every carrier, as JSON in its\n"+
			"storage form (indented, or on one line from 1 MiB; --indent and\n"+
			"--compact choose). The route that answered (--provider, --base-url and\n"+
			"--model, all three or none) is recorded by dialects that keep their\n"+
			"opaque items for their issuer only (responses); without it, such items\n"+
			"are stored for no route.")
	apiMode := f.String("api-mode", "chat", "api `MODE`: chat, anthropic, bedrock-converse, gemini or responses")
	stream := f.Bool("stream", false, "the input is a streamed response")
	provider := f.String("provider", "", "provider id `P` of the route that answered")
	baseURL := f.String("base-url", "", "base `URL` of the route that answered")
	model := f.String("model", "", "model id `M` of the route that answered")
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
	mode, ok := engine.ParseAPIMode(*apiMode)
	if !ok {
		return f.usagef("--api-mode %q: unknown api mode (want chat, anthropic, bedrock-converse, gemini or responses)", *apiMode)
	}
	// Capture reads no route data, so the zero table serves.
	dia, err := dialects.For(mode, &engine.Table{})
	if err != nil {
		return err
	}
	switch given := countSet(*provider, *baseURL, *model); {
	case given == 3:
		r := engine.Route{APIMode: mode, Provider: *provider, BaseURL: *baseURL, Model: *model}
		if r.Host() == "" {
			return f.usagef("--base-url %q: no hostname in it", *baseURL)
		}
		if b, ok := dia.(engine.RouteBinder); ok {
			dia = b.ForRoute(r)
		}
	case given > 0:
		return f.usagef("--provider, --base-url and --model name the route that answered: give all three or none")
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
		if looksStreamed(b) {
			return fmt.Errorf("%s: a streamed response (server-sent events or event-stream frames), not a JSON body: pass --stream", name)
		}
		if err := checkJSON(name, b); err != nil {
			return err
		}
		msg, err = dia.Capture(b)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return layout.writeValue(std.out, msg)
}

// countSet counts the non-blank values.
func countSet(vs ...string) int {
	n := 0
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			n++
		}
	}
	return n
}

// looksStreamed reports whether b starts as a server-sent event stream
// ("data:", "event:", "id:", ": comment") or an AWS event-stream frame (a
// binary prelude), which capture reads only with --stream.
func looksStreamed(b []byte) bool {
	t := bytes.TrimLeft(b, " \t\r\n")
	for _, field := range []string{"data:", "event:", "id:", "retry:", ":"} {
		if bytes.HasPrefix(t, []byte(field)) {
			return true
		}
	}
	return len(b) >= 12 && b[0] == 0 && !utf8.Valid(b[:12])
}
