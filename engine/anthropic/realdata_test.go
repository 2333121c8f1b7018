package anthropic_test

import (
	"encoding/json"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/anthropic"
	"github.com/replaycheck/replaycheck/internal/realdata"
	"github.com/tidwall/gjson"
)

// TestRealdata runs every recorded Anthropic response through capture and
// checks what the files show: signatures and redacted data stored byte for
// byte, in block order, and, where the cassette's next request replays
// the turn, the engine's replay of the captured turn equals the recorded
// one.
func TestRealdata(t *testing.T) {
	tbl := enginetest.Table(t)
	dl := anthropic.Dialect{Table: tbl}
	for _, path := range realdata.Files(t, "anthropic") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			its := realdata.LoadCassette(t, path)
			for i, it := range its {
				if !strings.Contains(it.URI, "/v1/messages") {
					t.Logf("interaction %d: %s is not an Anthropic exchange; skipped", i, it.URI)
					continue
				}
				if it.Status != 200 {
					if _, err := dl.Capture(it.ResponseBody); err == nil {
						t.Errorf("interaction %d: capture of a %d answer succeeded", i, it.Status)
					}
					continue
				}
				var m engine.Message
				var err error
				if gjson.GetBytes(it.RequestBody, "stream").Bool() {
					m, err = dl.CaptureStream(strings.NewReader(string(it.ResponseBody)))
				} else {
					m, err = dl.Capture(it.ResponseBody)
				}
				if err != nil {
					t.Fatalf("interaction %d: %v", i, err)
				}
				checkOpaque(t, i, it.ResponseBody, m)
				t.Logf("interaction %d: %d blocks %v, %d tool calls, reasoning %d bytes", i, len(m.Native.Blocks), blockTypes(m), len(m.ToolCalls), len(deref(m.ReasoningContent)))
				if i+1 < len(its) {
					checkReplay(t, dl, i, m, its[i+1].RequestBody)
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
