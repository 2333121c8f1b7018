package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/replaycheck/replaycheck/internal/longsession"
)

// longRoute is the route the long-session budgets shape for: a gateway
// that takes all three carriers.
var longRoute = []string{"--provider", "openrouter", "--base-url", "https://openrouter.ai/api/v1", "--model", "anthropic/claude-sonnet-4.5"}

// BenchmarkShapeCLILong is the end-to-end budget (DESIGN.md "Budgets"):
// `replaycheck shape` on the 2,000-turn, 67 MB session, from reading the
// file to the last byte written.
func BenchmarkShapeCLILong(b *testing.B) {
	doc := longsession.Budget()
	path := filepath.Join(b.TempDir(), "long.json")
	if err := os.WriteFile(path, doc, 0o644); err != nil {
		b.Fatal(err)
	}
	args := append([]string{"shape", "--matrix", repoMatrix, "--session", path}, longRoute...)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		var out countWriter
		var errb bytes.Buffer
		if code := Main(args, nil, &out, &errb); code != 0 {
			b.Fatalf("exit %d: %s", code, errb.String())
		}
		if out.n < int64(len(doc))/2 {
			b.Fatalf("shaped %d bytes", out.n)
		}
	}
}

// countWriter counts what is written to it.
type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// BenchmarkConnectorRoundTripLong is the protocol budget: one shape
// request carrying the 67 MB session, written to `replaycheck connector`
// through a pipe, and its reply read back. Compare with
// BenchmarkPipeRoundTripLong, the same request and a reply as long
// carried by the same two pipes with no work in between, and with
// BenchmarkPipeCopyLong, the session copied one way.
func BenchmarkConnectorRoundTripLong(b *testing.B) {
	inR, inW, outR, outW := twoPipes(b)
	done := make(chan int, 1)
	go func() {
		var errb bytes.Buffer
		code := Main([]string{"connector", "--matrix", repoMatrix}, inR, outW, &errb)
		outW.Close()
		if code != 0 {
			fmt.Fprintln(os.Stderr, errb.String())
		}
		done <- code
	}()
	call := pipeCaller(b, inW, outR)
	var decided struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(call([]byte(`{"id":1,"cmd":"decide",`+longRouteJSON+"}\n")), &decided); err != nil || decided.Result == nil {
		b.Fatalf("decide: %v", err)
	}
	req := longShapeRequest(decided.Result)
	b.SetBytes(int64(len(req)))
	b.ReportAllocs()
	for b.Loop() {
		reply := call(req)
		if !bytes.HasPrefix(reply, []byte(`{"id":2,"result":{"body":{`)) {
			b.Fatalf("reply: %.300s", reply)
		}
	}
	b.StopTimer()
	call([]byte(`{"id":3,"cmd":"bye"}` + "\n"))
	inW.Close()
	if code := <-done; code != 0 {
		b.Fatalf("connector exited %d", code)
	}
}

// BenchmarkPipeRoundTripLong is BenchmarkConnectorRoundTripLong's floor:
// the same shape request written through the same pipe, read whole as a
// line and written back as its reply, and read back by the same caller.
// A round trip cannot do less: it carries the request in and a reply
// about as long out, one after the other.
func BenchmarkPipeRoundTripLong(b *testing.B) {
	inR, inW, outR, outW := twoPipes(b)
	go func() {
		defer outW.Close()
		r := bufio.NewReaderSize(inR, 1<<20)
		var line []byte
		for {
			chunk, err := r.ReadSlice('\n')
			line = append(line, chunk...)
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if err != nil {
				return
			}
			if _, err := outW.Write(line); err != nil {
				return
			}
			line = line[:0]
		}
	}()
	call := pipeCaller(b, inW, outR)
	req := longShapeRequest(json.RawMessage(`{"carriers":["reasoning_content","reasoning","reasoning_details"],"pad":false}`))
	call(req) // the echo's line buffer grows once
	b.SetBytes(int64(len(req)))
	b.ReportAllocs()
	for b.Loop() {
		if reply := call(req); len(reply) != len(req) {
			b.Fatalf("echoed %d bytes of %d", len(reply), len(req))
		}
	}
	b.StopTimer()
	inW.Close()
}

// twoPipes opens the pipe requests go in by and the pipe replies come
// back by.
func twoPipes(b *testing.B) (inR, inW, outR, outW *os.File) {
	inR, inW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	outR, outW, err = os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	return inR, inW, outR, outW
}

// longRouteJSON is longRoute on the wire.
const longRouteJSON = `"route":{"api_mode":"chat","provider":"openrouter","base_url":"https://openrouter.ai/api/v1","model":"anthropic/claude-sonnet-4.5"}`

// longShapeRequest is one shape request line carrying the 67 MB session
// with decision.
func longShapeRequest(decision json.RawMessage) []byte {
	// One protocol line: the generator's newlines are whitespace between
	// messages (strings escape theirs).
	sess := bytes.ReplaceAll(bytes.TrimSpace(longsession.Budget()), []byte("\n"), nil)
	return fmt.Appendf(nil, `{"id":2,"cmd":"shape",%s,"decision":%s,"options":{"tools":[]},"session":%s}`+"\n", longRouteJSON, decision, sess)
}

// pipeCaller returns a function that writes a request line to in and
// reads one reply line from out, as a harness does.
func pipeCaller(b *testing.B, in io.Writer, out io.Reader) func(req []byte) []byte {
	replies := bufio.NewReaderSize(out, 1<<20)
	return func(req []byte) []byte {
		wrote := make(chan error, 1)
		go func() {
			_, err := in.Write(req)
			wrote <- err
		}()
		line, err := replies.ReadBytes('\n')
		if err != nil {
			b.Fatalf("reply: %v", err)
		}
		if err := <-wrote; err != nil {
			b.Fatal(err)
		}
		return line
	}
}

// BenchmarkPipeCopyLong copies the 67 MB session through a pipe: the
// floor BenchmarkConnectorRoundTripLong is measured against.
func BenchmarkPipeCopyLong(b *testing.B) {
	doc := longsession.Budget()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		r, w, err := os.Pipe()
		if err != nil {
			b.Fatal(err)
		}
		go func() {
			w.Write(doc)
			w.Close()
		}()
		n, err := io.Copy(io.Discard, r)
		r.Close()
		if err != nil || n != int64(len(doc)) {
			b.Fatalf("copied %d bytes: %v", n, err)
		}
	}
}
