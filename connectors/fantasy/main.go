// Command fantasy-connector puts charm.land/fantasy's reasoning replay, the
// Go agent library the Crush agent is built on, through replaycheck's
// cassettes over the engine protocol (protocol/README.md).
//
// It reads one JSON request per line on standard input and answers one JSON
// reply per line on standard output. shape and capture call fantasy's own
// providers (openaicompat, openrouter, openai, anthropic) with an
// http.Client whose transport captures the body the provider builds, or
// answers it with the recorded response; the connector itself only maps
// the protocol's stored messages to fantasy messages and back.
//
//	replaycheck run --engine connectors/fantasy/bin/fantasy-connector
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

func main() {
	if err := serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "fantasy-connector:", err)
		os.Exit(1)
	}
}

// serve answers request lines from in on out until bye or the end of in.
func serve(in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 1<<20)
	w := bufio.NewWriter(out)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			reply, bye := answer(line)
			b, merr := json.Marshal(reply)
			if merr != nil {
				return fmt.Errorf("reply to %s: %w", string(line[:min(len(line), 80)]), merr)
			}
			w.Write(b)
			w.WriteByte('\n')
			if ferr := w.Flush(); ferr != nil {
				return ferr
			}
			if bye {
				return nil
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
