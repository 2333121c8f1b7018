package anthropic_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/anthropic"
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

// TestRealdata runs every recorded Anthropic response through capture and
// checks what the files show: signatures and redacted data stored byte for
// byte, in block order, and, where the cassette's next request replays
// the turn, the engine's replay of the captured turn equals the recorded
// one.
func TestRealdata(t *testing.T) {
	tbl := committedTable(t)
	dl := anthropic.Dialect{Table: tbl}
	for _, path := range realdataFiles(t, "anthropic") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			its := loadCassette(t, path)
			for i, it := range its {
				if !strings.Contains(it.uri, "/v1/messages") {
					t.Logf("interaction %d: %s is not an Anthropic exchange; skipped", i, it.uri)
					continue
				}
				if it.status != 200 {
					if _, err := dl.Capture(it.responseBody); err == nil {
						t.Errorf("interaction %d: capture of a %d answer succeeded", i, it.status)
					}
					continue
				}
				var m engine.Message
				var err error
				if gjson.GetBytes(it.requestBody, "stream").Bool() {
					m, err = dl.CaptureStream(strings.NewReader(string(it.responseBody)))
				} else {
					m, err = dl.Capture(it.responseBody)
				}
				if err != nil {
					t.Fatalf("interaction %d: %v", i, err)
				}
				checkOpaque(t, i, it.responseBody, m)
				t.Logf("interaction %d: %d blocks %v, %d tool calls, reasoning %d bytes", i, len(m.Native.Blocks), blockTypes(m), len(m.ToolCalls), len(deref(m.ReasoningContent)))
				if i+1 < len(its) {
					checkReplay(t, dl, i, m, its[i+1].requestBody)
				}
			}
		})
	}
}

// checkOpaque asserts that every signature and redacted data value of the
// response is stored, in order, byte for byte.
func checkOpaque(t *testing.T, i int, resp []byte, m engine.Message) {
	t.Helper()
	want := opaqueValues(string(resp))
	var got []string
	for _, b := range m.Native.Blocks {
		v := gjson.ParseBytes(b)
		if s := v.Get("signature").Str; s != "" {
			got = append(got, s)
		}
		if d := v.Get("data").Str; d != "" {
			got = append(got, d)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("interaction %d: stored opaque values %d differ from the response's %d", i, len(got), len(want))
	}
	if len(want) == 0 {
		t.Logf("interaction %d: no opaque values", i)
	}
}

// opaqueValues lists the non-empty signature and data values a response
// (whole JSON or SSE) carries, in order.
func opaqueValues(resp string) []string {
	var out []string
	add := func(v gjson.Result) {
		for _, k := range []string{"signature", "data"} {
			if s := v.Get(k).Str; s != "" {
				out = append(out, s)
			}
		}
	}
	if gjson.Valid(resp) {
		gjson.Get(resp, "content").ForEach(func(_, b gjson.Result) bool { add(b); return true })
		return out
	}
	for _, line := range strings.Split(resp, "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		v := gjson.Parse(data)
		add(v.Get("content_block"))
		add(v.Get("delta"))
	}
	return out
}

// checkReplay compares the captured turn's wire copy with the assistant
// message the cassette's next request replayed, when that request replays
// it with its thinking.
func checkReplay(t *testing.T, dl anthropic.Dialect, i int, m engine.Message, next []byte) {
	t.Helper()
	var recordedTurn gjson.Result
	gjson.GetBytes(next, "messages").ForEach(func(_, msg gjson.Result) bool {
		if msg.Get("role").Str == "assistant" {
			recordedTurn = msg.Get("content")
		}
		return true
	})
	if !recordedTurn.Exists() {
		return
	}
	if !strings.Contains(recordedTurn.Raw, `"signature"`) && !strings.Contains(recordedTurn.Raw, `"redacted_thinking"`) {
		t.Logf("interaction %d: the next request replays the turn without signed thinking (the recording client's choice); not compared", i)
		return
	}
	s := &engine.Session{Messages: []engine.Message{
		{Role: "user", Content: json.RawMessage(`"q"`)}, m, {Role: "user", Content: json.RawMessage(`"next"`)},
	}}
	shape := func(model string) gjson.Result {
		r := engine.Route{APIMode: engine.ModeAnthropic, Provider: "anthropic", BaseURL: "https://api.anthropic.com", Model: model}
		body, err := dl.Shape(s, dl.Table.Decide(r, 0), engine.Request{})
		if err != nil {
			t.Fatal(err)
		}
		return gjson.GetBytes(body, "messages.1.content")
	}
	model := gjson.GetBytes(next, "model").Str
	if !dl.Table.Dialects.Anthropic.PriorThinking.Keeps(model) {
		// The engine leaves an earlier turn's thinking out for a model that
		// keeps only the last turn's; the recording client sent it anyway.
		if got := shape(model); strings.Contains(got.Raw, `"thinking"`) {
			t.Errorf("interaction %d: %s keeps only the last turn's thinking, yet the replay carries it: %.200s", i, model, got.Raw)
		}
		t.Logf("interaction %d: %s keeps only the last turn's thinking: the engine drops it from the earlier turn; compared on claude-opus-4-6 instead", i, model)
		model = "claude-opus-4-6"
	}
	if got := shape(model); !sameJSON(got.Raw, recordedTurn.Raw) {
		t.Errorf("interaction %d: replay differs from the recorded next request\n got: %.300s\nwant: %.300s", i, got.Raw, recordedTurn.Raw)
	}
}
