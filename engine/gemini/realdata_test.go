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
	"github.com/tidwall/gjson"
	"go.yaml.in/yaml/v3"
)

// realdataDir is ../shared/realdata relative to the repository root; the
// files are read in place and never copied into the repository.
const realdataDir = "../../../shared/realdata"

// recorded is one interaction of a recorded cassette.
type recorded struct {
	uri          string
	requestBody  []byte // JSON
	status       int
	responseBody []byte // JSON, SSE text or event-stream bytes
}

// loadCassette reads a recorded cassette: bodies given as parsed_body
// (YAML maps) become JSON; body.string is taken as it is.
func loadCassette(t *testing.T, path string) []recorded {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Interactions []struct {
			Request struct {
				URI        string `yaml:"uri"`
				Body       any    `yaml:"body"`
				ParsedBody any    `yaml:"parsed_body"`
			} `yaml:"request"`
			Response struct {
				Body struct {
					String any `yaml:"string"`
				} `yaml:"body"`
				ParsedBody any `yaml:"parsed_body"`
				Status     struct {
					Code int `yaml:"code"`
				} `yaml:"status"`
			} `yaml:"response"`
		} `yaml:"interactions"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []recorded
	for _, it := range doc.Interactions {
		r := recorded{uri: it.Request.URI, status: it.Response.Status.Code}
		r.requestBody = bodyOf(t, it.Request.ParsedBody, it.Request.Body)
		r.responseBody = bodyOf(t, it.Response.ParsedBody, it.Response.Body.String)
		out = append(out, r)
	}
	return out
}

func bodyOf(t *testing.T, parsed, raw any) []byte {
	t.Helper()
	if parsed != nil {
		b, err := json.Marshal(parsed)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	switch v := raw.(type) {
	case string:
		return []byte(v)
	case []byte:
		return v
	}
	return nil
}

func realdataFiles(t *testing.T, dialect string) []string {
	t.Helper()
	dir := filepath.Join(realdataDir, dialect)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("%s not present: %v", dir, err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no files (%v)", dir, err)
	}
	return files
}

// TestRealdata runs every recorded Gemini response through capture and
// checks what the files show: each functionCall's thoughtSignature on its
// tool call, a text part's signature in the record, thought parts as
// readable reasoning; and, where the cassette's next request replays the
// turn, the engine puts the same signatures on the same parts.
func TestRealdata(t *testing.T) {
	dl := gemini.Dialect{}
	for _, path := range realdataFiles(t, "gemini") {
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
			its := loadCassette(t, path)
			for i, it := range its {
				if !strings.Contains(it.uri, "generativelanguage.googleapis.com") {
					t.Logf("interaction %d: %s is not a Gemini exchange; skipped", i, it.uri)
					continue
				}
				var m engine.Message
				var err error
				var chunks []string
				if strings.Contains(it.uri, ":streamGenerateContent") {
					m, err = dl.CaptureStream(strings.NewReader(string(it.responseBody)))
					for _, ev := range strings.Split(string(it.responseBody), "\r\n\r\n") {
						if d, ok := strings.CutPrefix(strings.TrimSpace(ev), "data: "); ok {
							chunks = append(chunks, d)
						}
					}
				} else {
					m, err = dl.Capture(it.responseBody)
					chunks = []string{string(it.responseBody)}
				}
				if err != nil {
					t.Fatalf("interaction %d: %v", i, err)
				}
				checkCapture(t, i, chunks, m)
				if i+1 < len(its) {
					checkReplay(t, i, m, its[i+1].requestBody)
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
