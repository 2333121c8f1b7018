package main

import (
	"bufio"
	"bytes"
	"encoding/json"
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
// BenchmarkPipeCopyLong, the same bytes copied through a pipe.
func BenchmarkConnectorRoundTripLong(b *testing.B) {
	// One protocol line: the generator's newlines are whitespace between
	// messages (strings escape theirs).
	sess := bytes.ReplaceAll(bytes.TrimSpace(longsession.Budget()), []byte("\n"), nil)
	inR, inW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
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
	replies := bufio.NewReaderSize(outR, 1<<20)
	call := func(req []byte) []byte {
		wrote := make(chan error, 1)
		go func() {
			_, err := inW.Write(req)
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
	const route = `"route":{"api_mode":"chat","provider":"openrouter","base_url":"https://openrouter.ai/api/v1","model":"anthropic/claude-sonnet-4.5"}`
	var decided struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(call([]byte(`{"id":1,"cmd":"decide",`+route+"}\n")), &decided); err != nil || decided.Result == nil {
		b.Fatalf("decide: %v", err)
	}
	req := fmt.Appendf(nil, `{"id":2,"cmd":"shape",%s,"decision":%s,"options":{"tools":[]},"session":%s}`+"\n", route, decided.Result, sess)
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
