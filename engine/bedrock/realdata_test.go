package bedrock_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/bedrock"
	"github.com/replaycheck/replaycheck/internal/realdata"
	"github.com/tidwall/gjson"
)

// TestRealdata runs every recorded Converse response through capture and
// checks what the files show: reasoning text, signatures and redacted
// blobs stored byte for byte in block order, and, where the cassette's
// next request replays the turn, the engine's replay equals the recorded
// one under the model's policy.
func TestRealdata(t *testing.T) {
	tbl := enginetest.Table(t)
	dl := bedrock.Dialect{Table: tbl}
	for _, path := range realdata.Files(t, "bedrock") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			switch {
			case strings.HasSuffix(path, ".json"):
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				m, err := dl.Capture(b)
				if err != nil {
					t.Fatal(err)
				}
				checkOpaque(t, 0, wholeOpaque(gjson.GetBytes(b, "output.message.content")), m)
			case strings.HasSuffix(path, ".chunks.txt"):
				frames, want := chunkFrames(t, path)
				m, err := dl.CaptureStream(bytes.NewReader(frames))
				if err != nil {
					t.Fatal(err)
				}
				checkOpaque(t, 0, want, m)
			default:
				its := realdata.LoadCassette(t, path)
				for i, it := range its {
					model := modelOf(it.URI)
					var m engine.Message
					var err error
					var want []string
					if strings.HasSuffix(strings.SplitN(it.URI, "?", 2)[0], "/converse-stream") {
						m, err = dl.CaptureStream(bytes.NewReader(it.ResponseBody))
						want = streamOpaque(t, it.ResponseBody)
					} else {
						m, err = dl.Capture(it.ResponseBody)
						want = wholeOpaque(gjson.GetBytes(it.ResponseBody, "output.message.content"))
					}
					if err != nil {
						t.Fatalf("interaction %d: %v", i, err)
					}
					checkOpaque(t, i, want, m)
					if i+1 < len(its) {
						checkReplay(t, dl, i, model, m, its[i+1].RequestBody)
					}
				}
			}
		})
	}
}

// modelOf reads the model id from a /model/{id}/converse URI.
func modelOf(uri string) string {
	_, rest, _ := strings.Cut(uri, "/model/")
	id, _, _ := strings.Cut(rest, "/")
	return strings.ReplaceAll(id, "%3A", ":")
}

// wholeOpaque lists the reasoning values of a whole response's content, in
// order: text, signature, redactedContent of each reasoning block.
func wholeOpaque(content gjson.Result) []string {
	var out []string
	content.ForEach(func(_, b gjson.Result) bool {
		rc := b.Get("reasoningContent")
		for _, k := range []string{"reasoningText.text", "reasoningText.signature", "redactedContent"} {
			if s := rc.Get(k).Str; s != "" {
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

// streamOpaque decodes a recorded ConverseStream body with the package's
// frame reader and lists the reasoning values the deltas carry, text
// concatenated per block.
func streamOpaque(t *testing.T, body []byte) []string {
	t.Helper()
	fr := bedrock.NewFrameReader(bytes.NewReader(body))
	var lines []string
	for {
		f, err := fr.Next()
		if err != nil {
			break
		}
		lines = append(lines, `{"`+f.EventType+`":`+string(f.Payload)+`}`)
	}
	return deltaOpaque(lines)
}

// deltaOpaque lists the reasoning values of decoded stream events.
func deltaOpaque(lines []string) []string {
	text := map[int64]string{}
	var order []int64
	sig, red := map[int64]string{}, map[int64]string{}
	for _, l := range lines {
		d := gjson.Get(l, "contentBlockDelta")
		rc := d.Get("delta.reasoningContent")
		if !rc.Exists() {
			continue
		}
		i := d.Get("contentBlockIndex").Int()
		if _, ok := text[i]; !ok {
			order = append(order, i)
			text[i] = ""
		}
		text[i] += rc.Get("text").Str
		if s := rc.Get("signature").Str; s != "" {
			sig[i] = s
		}
		if s := rc.Get("redactedContent").Str; s != "" {
			red[i] = s
		}
	}
	var out []string
	for _, i := range order {
		for _, s := range []string{text[i], sig[i], red[i]} {
			if s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// chunkFrames encodes a decoded-events file (one {"eventType": payload}
// JSON object per line) as event-stream frames with the SDK encoder.
func chunkFrames(t *testing.T, path string) ([]byte, []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var events []streamEvent
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		lines = append(lines, line)
		gjson.Parse(line).ForEach(func(k, v gjson.Result) bool {
			events = append(events, streamEvent{k.Str, v.Raw})
			return true
		})
	}
	return encodeFrames(t, events), deltaOpaque(lines)
}

// checkOpaque asserts that the stored reasoning (native blocks and
// reasoning_details items) holds exactly the response's values, in order.
func checkOpaque(t *testing.T, i int, want []string, m engine.Message) {
	t.Helper()
	var native, items []string
	for _, b := range m.Native.Blocks {
		rc := gjson.GetBytes(b, "reasoningContent")
		for _, k := range []string{"reasoningText.text", "reasoningText.signature", "redactedContent"} {
			if s := rc.Get(k).Str; s != "" {
				native = append(native, s)
			}
		}
	}
	for _, it := range m.ReasoningDetails {
		for _, k := range []string{"thinking", "signature", "data"} {
			if s := gjson.GetBytes(it, k).Str; s != "" {
				items = append(items, s)
			}
		}
	}
	if strings.Join(native, "\n") != strings.Join(want, "\n") || strings.Join(items, "\n") != strings.Join(want, "\n") {
		t.Errorf("interaction %d: stored reasoning (%d native, %d items) differs from the response's %d values", i, len(native), len(items), len(want))
	}
	t.Logf("interaction %d: %d native blocks, %d reasoning items, %d tool calls", i, len(m.Native.Blocks), len(m.ReasoningDetails), len(m.ToolCalls))
}

// checkReplay compares the captured turn's wire copy with the assistant
// message the cassette's next request replayed.
func checkReplay(t *testing.T, dl bedrock.Dialect, i int, model string, m engine.Message, next []byte) {
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
	s := &engine.Session{Messages: []engine.Message{
		{Role: "user", Content: json.RawMessage(`"q"`)}, m, {Role: "user", Content: json.RawMessage(`"next"`)},
	}}
	r := engine.Route{APIMode: engine.ModeBedrockConverse, Provider: "bedrock", BaseURL: "https://bedrock-runtime.us-east-1.amazonaws.com", Model: model}
	body, err := dl.Shape(s, dl.Table.Decide(r, 0), engine.Request{})
	if err != nil {
		t.Fatal(err)
	}
	got := gjson.GetBytes(body, "messages.1.content")
	pol := dl.Table.Dialects.Converse.For(model)
	if !strings.Contains(recordedTurn.Raw, "reasoningContent") {
		t.Logf("interaction %d: %s (policy %s, %s): the recording client replayed no reasoningContent; the engine sends %d blocks: %.200s", i, model, pol.ID, pol.Replay, len(got.Array()), got.Raw)
		if pol.Replay == engine.ReplayStripped && strings.Contains(got.Raw, "reasoningContent") {
			t.Errorf("interaction %d: stripped policy replayed reasoning", i)
		}
		return
	}
	if !sameJSON(got.Raw, recordedTurn.Raw) {
		t.Errorf("interaction %d: replay differs from the recorded next request\n got: %.300s\nwant: %.300s", i, got.Raw, recordedTurn.Raw)
	}
}
