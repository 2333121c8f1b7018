package protocol

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/scenario"
)

// envPeer makes the test binary a protocol peer: TestMain runs the peer
// named by it instead of the tests.
const envPeer = "REPLAYCHECK_PROTOCOL_PEER"

func TestMain(m *testing.M) {
	if name := os.Getenv(envPeer); name != "" {
		os.Exit(runPeer(name))
	}
	os.Exit(m.Run())
}

// peerCommand is the command line of a peer.
func peerCommand(t *testing.T, name string) Config {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Config{Command: []string{exe}, Env: []string{envPeer + "=" + name}}
}

// testMaxLine is the reply limit the huge peer's client holds (16 MiB,
// the client's limit before it took what the server takes).
const testMaxLine = 16 << 20

// longReply is the length of the long peer's reason: over the old 16 MiB
// limit, as a shaped body for a 67 MB session is.
const longReply = 17 << 20

// goodHello is the hello of every peer that gets past hello.
const goodHello = `{"implementation":{"name":"peer","version":"1"},"protocol":1,"api_modes":["chat"]}`

// crashesOnMistral is the reference engine, but the process dies when
// asked to shape for Mistral.
type crashesOnMistral struct{ scenario.Implementation }

func (c crashesOnMistral) Shape(ctx context.Context, s *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	if d.Route.Provider == "mistral" {
		fmt.Fprintln(os.Stderr, "fatal: segmentation fault in the mistral adapter")
		os.Exit(3)
	}
	return c.Implementation.Shape(ctx, s, d, req)
}

// misbehaving maps the name of a peer to the reference engine with one
// misbehaviour: each file of regressed peers registers its own in init.
var misbehaving = map[string]func(scenario.Implementation) scenario.Implementation{
	"reference-crashes-on-mistral": func(impl scenario.Implementation) scenario.Implementation { return crashesOnMistral{impl} },
}

// referencePeer returns the implementation a peer built on the reference
// engine serves, and its api modes: "reference", a misbehaving peer, or
// "regressed-<step>-<index>". ok is false for other peers; impl is nil
// (after a message on stderr) when the peer cannot start.
func referencePeer(name string) (impl scenario.Implementation, modes []string, ok bool) {
	wrap, known := misbehaving[name]
	if name != "reference" && !known && !strings.HasPrefix(name, "regressed-") {
		return nil, nil, false
	}
	mf, err := matrix.Load("../matrix.yaml")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return nil, nil, true
	}
	impl = scenario.Reference{Table: &mf.Table}
	modes = []string{"chat", "anthropic", "bedrock-converse", "gemini"}
	switch {
	case known:
		impl = wrap(impl)
		if name != "reference-crashes-on-mistral" {
			modes = append(modes, "responses")
		}
	case strings.HasPrefix(name, "regressed-"):
		g, ok := regressedPeer(name, impl)
		if !ok {
			fmt.Fprintln(os.Stderr, "no such regressed peer:", name)
			return nil, nil, true
		}
		impl, modes = g, append(modes, "responses")
	}
	return impl, modes, true
}

// runPeer plays one peer. "reference" serves the reference engine; the
// others answer hello (unless their name starts with "hello-") and then
// misbehave at the first step as their name says. Every peer exits when
// its input ends.
func runPeer(name string) int {
	if impl, modes, ok := referencePeer(name); ok {
		if impl == nil {
			return 2
		}
		srv := &Server{Hello: Hello{Implementation: Implementation{Name: "reference-peer", Version: "1", Language: "go"}, Protocol: Version,
			APIModes: modes}, Impl: impl}
		if err := srv.Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), MaxLine)
	for in.Scan() {
		var req struct {
			ID  int64  `json:"id"`
			Cmd string `json:"cmd"`
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			return 2
		}
		reply := func(body string) {
			fmt.Printf(`{"id":%d,%s}`+"\n", req.ID, body)
		}
		if req.Cmd == CmdBye {
			reply(`"result":{}`)
			return 0
		}
		if req.Cmd == CmdHello && !strings.HasPrefix(name, "hello-") {
			reply(`"result":` + goodHello)
			continue
		}
		switch name {
		case "silent", "hello-silent":
			// Read on, never answer: the client must time out.
		case "exits":
			fmt.Fprintln(os.Stderr, "panic: the replay function blew up")
			return 3
		case "garbage":
			fmt.Println("Traceback (most recent call last): not JSON")
		case "wrong-id":
			fmt.Printf(`{"id":%d,"result":{"carriers":[],"pad":false}}`+"\n", req.ID+100)
		case "huge":
			fmt.Printf(`{"id":%d,"result":{"carriers":[],"pad":false,"reasons":["%s"]}}`+"\n", req.ID, strings.Repeat("x", testMaxLine+1))
		case "long":
			fmt.Printf(`{"id":%d,"result":{"carriers":[],"pad":false,"reasons":["%s"]}}`+"\n", req.ID, strings.Repeat("x", longReply))
		case "two-answers":
			reply(`"result":{"carriers":[],"pad":false},"unsupported":{"reason":"both"}`)
		case "unknown-field":
			reply(`"result":{"carriers":[],"pad":false,"carriers_extra":1}`)
		case "missing-field":
			reply(`"result":{"carriers":[]}`)
		case "bad-carrier":
			reply(`"result":{"carriers":["reasoning_contents"],"pad":false}`)
		case "unsupported":
			reply(`"unsupported":{"reason":"this agent routes nothing","issue_url":"https://example.com/issues/1"}`)
		case "error":
			reply(`"error":{"message":"decide: no route table loaded"}`)
		case "hello-protocol-2":
			reply(`"result":{"implementation":{"name":"peer","version":"1"},"protocol":2,"api_modes":["chat"]}`)
		case "hello-no-modes":
			reply(`"result":{"implementation":{"name":"peer","version":"1"},"protocol":1,"api_modes":[]}`)
		case "hello-unknown-mode":
			reply(`"result":{"implementation":{"name":"peer","version":"1"},"protocol":1,"api_modes":["chat","soap"]}`)
		default:
			fmt.Fprintf(os.Stderr, "unknown peer %q\n", name)
			return 2
		}
	}
	return 0
}
