package main

import (
	"context"

	"github.com/replaycheck/replaycheck/engine/dialects"
	"github.com/replaycheck/replaycheck/protocol"
	"github.com/replaycheck/replaycheck/scenario"
)

func runConnector(ctx context.Context, std *streams, args []string) error {
	f := newFlags("connector",
		"connector [--matrix FILE]",
		"Connector serves the reference engine over the engine protocol\n"+
			"(protocol/README.md): one JSON request per line on standard input, one\n"+
			"reply per line on standard output, until bye or the end of input. It\n"+
			"decides routes with the route table of --matrix, as run does, so\n"+
			"`run --engine \"replaycheck connector\"` prints the same matrix as run.\n"+
			"Run it by hand and type requests to see the reference engine's answers.")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := f.atMost(pos, 0); err != nil {
		return err
	}
	mf, err := f.loadMatrix()
	if err != nil {
		return err
	}
	srv := &protocol.Server{Hello: referenceHello(), Impl: scenario.Reference{Table: &mf.Table}, ValidBodies: true}
	return srv.Serve(ctx, std.in, std.out)
}

// referenceHello is the reference engine's hello: every api mode with a
// dialect, every scenario.
func referenceHello() protocol.Hello {
	i := scenario.ReferenceInfo
	h := protocol.Hello{
		Implementation: protocol.Implementation{Name: i.Name, Version: i.Version, Language: i.Language, Homepage: i.Homepage},
		Protocol:       protocol.Version,
	}
	for _, m := range dialects.Modes() {
		h.APIModes = append(h.APIModes, string(m))
	}
	return h
}
