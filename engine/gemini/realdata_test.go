package gemini_test

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/gemini"
	"github.com/replaycheck/replaycheck/internal/realdata"
	"github.com/tidwall/gjson"
)

// TestRealdata runs every recorded Gemini response through capture and
// checks what the files show: each functionCall's thoughtSignature on its
// tool call, a text part's signature in the record, thought parts as
// readable reasoning; and, where the cassette's next request replays the
// turn, the engine puts the same signatures on the same parts.
func TestRealdata(t *testing.T) {
	dl := gemini.Dialect{}
	for _, path := range realdata.Files(t, "gemini") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			if strings.HasSuffix(path, ".chunks.txt") {
				sse, chunks := chunkStream(t, path)
				m, err := dl.CaptureStream(strings.NewReader(sse))
				if err != nil {
					t.Fatal(err)
				}
				checkCapture(t, 0, chunks, m)
				return
			}
			its := realdata.LoadCassette(t, path)
			for i, it := range its {
				if !strings.Contains(it.URI, "generativelanguage.googleapis.com") {
					t.Logf("interaction %d: %s is not a Gemini exchange; skipped", i, it.URI)
					continue
				}
				var m engine.Message
				var err error
				var chunks []string
				if strings.Contains(it.URI, ":streamGenerateContent") {
					m, err = dl.CaptureStream(strings.NewReader(string(it.ResponseBody)))
					for _, ev := range strings.Split(string(it.ResponseBody), "\r\n\r\n") {
						if d, ok := strings.CutPrefix(strings.TrimSpace(ev), "data: "); ok {
							chunks = append(chunks, d)
						}
					}
				} else {
					m, err = dl.Capture(it.ResponseBody)
					chunks = []string{string(it.ResponseBody)}
				}
				if err != nil {
					t.Fatalf("interaction %d: %v", i, err)
				}
				checkCapture(t, i, chunks, m)
				if i+1 < len(its) {
					checkReplay(t, i, m, its[i+1].RequestBody)
				}
			}
		})
	}
}

// chunkStream frames a decoded-chunks file (one JSON chunk per line) as the
// SSE body streamGenerateContent?alt=sse sends.
func chunkStream(t *testing.T, path string) (string, []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	var chunks []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			chunks = append(chunks, line)
			b.WriteString("data: " + line + "\r\n\r\n")
		}
	}
	return b.String(), chunks
}

// checkCapture compares the stored message with the parts of the chunks:
// function-call signatures in order, the latest text-part signature,
// thought text and answer text.
func checkCapture(t *testing.T, i int, chunks []string, m engine.Message) {
	t.Helper()
	var callSigs []string
	var textSig, thoughts, text string
	for _, c := range chunks {
		gjson.Get(c, "candidates.0.content.parts").ForEach(func(_, p gjson.Result) bool {
			sig := p.Get("thoughtSignature").Str
			switch {
			case p.Get("functionCall").Exists():
				callSigs = append(callSigs, sig)
			case p.Get("thought").Bool():
				thoughts += p.Get("text").Str
				if sig != "" {
					textSig = sig
				}
			default:
				text += p.Get("text").Str
				if sig != "" {
					textSig = sig
				}
			}
			return true
		})
	}
	var gotSigs []string
	for _, tc := range m.ToolCalls {
		gotSigs = append(gotSigs, engine.ThoughtSignatureOf(tc.ExtraContent))
	}
	if strings.Join(gotSigs, "\n") != strings.Join(callSigs, "\n") {
		t.Errorf("interaction %d: function-call signatures differ from the response's", i)
	}
	if got := m.NativeValues().ThoughtSignature; got != textSig {
		t.Errorf("interaction %d: text signature %.20q, want %.20q", i, got, textSig)
	}
	if got := deref(m.ReasoningContent); got != thoughts {
		t.Errorf("interaction %d: reasoning %.40q, want %.40q", i, got, thoughts)
	}
	if got := gjson.ParseBytes(m.Content).Str; got != text {
		t.Errorf("interaction %d: content %.40q, want %.40q", i, got, text)
	}
	t.Logf("interaction %d: %d calls (%d signed), text signature %v, thoughts %d bytes, text %d bytes", i, len(m.ToolCalls), countNonEmpty(callSigs), textSig != "", len(thoughts), len(text))
}

// checkReplay compares the signatures on the model turn the next request
// replayed with the engine's replay of the captured turn. Base64 text is
// compared by the bytes it encodes, because the recording SDK re-encodes
// signatures in the URL-safe alphabet.
func checkReplay(t *testing.T, i int, m engine.Message, next []byte) {
	t.Helper()
	var recordedTurn gjson.Result
	var resultIDs []string
	gjson.GetBytes(next, "contents").ForEach(func(_, c gjson.Result) bool {
		if c.Get("role").Str == "model" {
			recordedTurn = c
		}
		return true
	})
	if !recordedTurn.Exists() {
		return
	}
	hist := []engine.Message{{Role: "user", Content: json.RawMessage(`"q"`)}, m}
	for _, tc := range m.ToolCalls {
		resultIDs = append(resultIDs, tc.ID)
		hist = append(hist, engine.Message{Role: "tool", ToolCallID: tc.ID, Content: json.RawMessage(`"ok"`)})
	}
	body, err := gemini.Dialect{}.Shape(&engine.Session{Messages: hist}, engine.Decision{}, engine.Request{})
	if err != nil {
		t.Fatal(err)
	}
	got := gjson.GetBytes(body, "contents.1.parts")
	want := recordedTurn.Get("parts")
	if len(got.Array()) != len(want.Array()) {
		t.Errorf("interaction %d: %d replayed parts, the recorded request has %d", i, len(got.Array()), len(want.Array()))
		return
	}
	for k := range want.Array() {
		g, w := got.Array()[k].Get("thoughtSignature").Str, want.Array()[k].Get("thoughtSignature").Str
		if g == w {
			continue
		}
		if sameBase64(g, w) {
			t.Logf("interaction %d: part %d: the recorded request re-encoded the signature in another base64 alphabet (same bytes); the engine echoes the response's text", i, k)
			continue
		}
		t.Errorf("interaction %d: part %d: signature %.20q, recorded %.20q", i, k, g, w)
	}
}

func sameBase64(a, b string) bool {
	da, err1 := base64.StdEncoding.DecodeString(a)
	db, err2 := base64.URLEncoding.DecodeString(b)
	return err1 == nil && err2 == nil && string(da) == string(db)
}

func countNonEmpty(ss []string) int {
	n := 0
	for _, s := range ss {
		if s != "" {
			n++
		}
	}
	return n
}
