package responses_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"github.com/replaycheck/replaycheck/engine/responses"
	"github.com/replaycheck/replaycheck/internal/realdata"
	"github.com/tidwall/gjson"
)

// TestRealdata runs every recorded Responses exchange (OpenAI, DeepSeek
// and the OpenAI turns of the cross-provider cassettes) through capture
// and checks what the files show: every output item kept in order with
// its encrypted content byte for byte, the summaries readable; where the
// cassette's next request replays the turn, the engine sends the same
// encrypted content in the same place, before the item it led to; and
// none of the recorded refusals is learnt.
func TestRealdata(t *testing.T) {
	table := enginetest.Table(t)
	var files []string
	for _, dir := range []string{"openai", "deepseek", "anthropic", "gemini", "mistral"} {
		files = append(files, realdata.Files(t, dir)...)
	}
	checked := 0
	for _, path := range files {
		if !strings.HasSuffix(path, ".yaml") {
			continue
		}
		its := realdata.LoadCassette(t, path)
		for i, it := range its {
			if !strings.HasSuffix(it.URI, "/responses") {
				continue
			}
			t.Run(filepath.Base(path)+"/"+string(rune('0'+i)), func(t *testing.T) {
				r := routeOf(it.URI, it.RequestBody)
				dl := responses.Dialect{Table: table}.ForRoute(r)
				if it.Status != 200 {
					d := table.Decide(r, 0)
					if verdict, ok := dl.Learn(&engine.Session{}, table, d, it.RequestBody, it.Status, it.ResponseBody); ok {
						t.Errorf("the recorded refusal %s was learnt: %s", it.ResponseBody, verdict)
					}
					return
				}
				m, err := dl.Capture(it.ResponseBody)
				if err != nil {
					t.Fatal(err)
				}
				checked++
				checkItems(t, it.ResponseBody, m)
				if i+1 < len(its) && strings.HasSuffix(its[i+1].URI, "/responses") {
					checkReplay(t, table, r, it.RequestBody, its[i+1].RequestBody, m)
				}
			})
		}
	}
	if checked == 0 {
		t.Fatal("no recorded Responses exchange was checked")
	}
}

// routeOf is the route of a recorded request: its host and model.
func routeOf(uri string, req []byte) engine.Route {
	base := strings.TrimSuffix(uri, "/responses")
	host := engine.Hostname(base)
	provider := strings.Split(host, ".")[len(strings.Split(host, "."))-2]
	return engine.Route{APIMode: engine.ModeResponses, Provider: provider, BaseURL: base, Model: gjson.GetBytes(req, "model").Str}
}

// checkItems compares the stored items with the response's output.
func checkItems(t *testing.T, resp []byte, m engine.Message) {
	t.Helper()
	out := gjson.GetBytes(resp, "output").Array()
	if len(out) != len(m.Native.Blocks) {
		t.Fatalf("%d items stored, the response has %d", len(m.Native.Blocks), len(out))
	}
	var summaries []string
	for k, item := range out {
		b := gjson.ParseBytes(m.Native.Blocks[k])
		for _, key := range []string{"type", "id", "encrypted_content", "call_id", "arguments"} {
			if b.Get(key).Raw != item.Get(key).Raw {
				t.Errorf("item %d: %s %s, the response has %s", k, key, b.Get(key).Raw, item.Get(key).Raw)
			}
		}
		item.Get("summary.#.text").ForEach(func(_, s gjson.Result) bool {
			summaries = append(summaries, s.Str)
			return true
		})
	}
	if len(summaries) > 0 && (m.ReasoningContent == nil || *m.ReasoningContent != strings.Join(summaries, "\n\n")) {
		t.Errorf("reasoning_content %v, want the summaries", m.ReasoningContent)
	}
}

// checkReplay rebuilds the session of the next recorded request (its
// history up to the captured turn, the captured turn, what followed it)
// and checks that the engine sends every reasoning item the recorded
// request sent back, with the same encrypted content, each directly before
// a non-reasoning item of the same turn.
func checkReplay(t *testing.T, table *engine.Table, r engine.Route, req, next []byte, m engine.Message) {
	t.Helper()
	prior := len(gjson.GetBytes(req, "input").Array())
	nextInput := gjson.GetBytes(next, "input").Array()
	s := &engine.Session{Messages: historyOf(gjson.GetBytes(req, "input").Array())}
	s.Messages = append(s.Messages, m)
	rest := nextInput[min(prior+len(m.Native.Blocks), len(nextInput)):]
	s.Messages = append(s.Messages, historyOf(rest)...)
	body, err := responses.Dialect{Table: table}.Shape(s, table.Decide(r, 0), engine.Request{})
	if err != nil {
		t.Fatal(err)
	}
	var sentEnc, recordedEnc []string
	items := gjson.GetBytes(body, "input").Array()
	for k, it := range items {
		if it.Get("type").Str != "reasoning" {
			continue
		}
		sentEnc = append(sentEnc, it.Get("encrypted_content").Str)
		if k+1 >= len(items) || items[k+1].Get("type").Str == "reasoning" && k+2 >= len(items) || items[k+1].Get("role").Str == "user" {
			t.Errorf("input.%d: a reasoning item without the item it led to after it: %s", k, body)
		}
	}
	for _, it := range nextInput {
		if it.Get("type").Str == "reasoning" && it.Get("encrypted_content").Str != "" {
			recordedEnc = append(recordedEnc, it.Get("encrypted_content").Str)
		}
	}
	for _, enc := range recordedEnc {
		if !slices.Contains(sentEnc, enc) {
			t.Errorf("the recorded request sent back encrypted content %.24s…, the engine does not", enc)
		}
	}
}

// historyOf turns recorded input items into stored messages: user and
// assistant messages with string content, function_call_output as tool
// results. Reasoning and function_call items of earlier turns are left to
// the captured turn.
func historyOf(items []gjson.Result) []engine.Message {
	var out []engine.Message
	for _, it := range items {
		switch {
		case it.Get("type").Str == "function_call_output":
			out = append(out, enginetest.ToolResult(it.Get("call_id").Str, it.Get("output").Str))
		case it.Get("role").Str == "user" || it.Get("role").Str == "system":
			c := it.Get("content")
			if c.Type != gjson.String {
				c = gjson.Parse(string(engine.AppendQuoted(nil, c.Get("0.text").Str)))
			}
			out = append(out, engine.Message{Role: it.Get("role").Str, Content: json.RawMessage(c.Raw)})
		}
	}
	return out
}

// TestRealdataOpenRouterStream captures OpenRouter's recorded Responses
// stream (Claude 3.7 through /api/v1/responses): the final response's
// signed reasoning item wins over the unsigned finished one.
func TestRealdataOpenRouterStream(t *testing.T) {
	path := filepath.Join(realdata.Dir(), "openrouter", "responses-stream-claude37-reasoning", "response.jsonl")
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("%s not present: %v", path, err)
	}
	defer f.Close()
	var stream, pending strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			JSON json.RawMessage `json:"json"`
			Text *string         `json:"text"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		switch {
		case line.JSON != nil:
			stream.WriteString("data: " + string(line.JSON) + "\n\n")
		case line.Text != nil:
			pending.WriteString(*line.Text)
			if p := pending.String(); strings.HasSuffix(p, "\n\n") || p == "[DONE]" {
				stream.WriteString("data: " + strings.TrimSpace(p) + "\n\n")
				pending.Reset()
			}
		}
	}
	r := engine.Route{APIMode: engine.ModeResponses, Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "anthropic/claude-3.7-sonnet:thinking"}
	m, err := responses.Dialect{Table: enginetest.Table(t)}.ForRoute(r).CaptureStream(strings.NewReader(stream.String()))
	if err != nil {
		t.Fatal(err)
	}
	rs := gjson.ParseBytes(m.Native.Blocks[0])
	if rs.Get("type").Str != "reasoning" || rs.Get("signature").Str == "" || !strings.HasPrefix(rs.Get("id").Str, "rs_tmp_") {
		t.Errorf("first item %s: want the final response's signed reasoning item", rs.Raw)
	}
	if m.ReasoningContent == nil || !strings.HasPrefix(*m.ReasoningContent, "The capital of France is Paris.") || !strings.Contains(string(m.Content), "Paris") {
		t.Errorf("standard view: reasoning %v, content %s", m.ReasoningContent, m.Content)
	}
}
