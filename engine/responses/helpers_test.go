package responses_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"github.com/replaycheck/replaycheck/engine/responses"
	"github.com/tidwall/gjson"
)

// Routes of the tests: OpenAI direct (the issuer of the history), another
// model there, an Azure resource and a relay serving the same model.
var (
	openaiRoute = engine.Route{APIMode: engine.ModeResponses, Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-5.1"}
	otherModel  = engine.Route{APIMode: engine.ModeResponses, Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-5-mini"}
	azureRoute  = engine.Route{APIMode: engine.ModeResponses, Provider: "azure", BaseURL: "https://demo.openai.azure.com/openai/v1", Model: "gpt-5.1"}
	relayRoute  = engine.Route{APIMode: engine.ModeResponses, Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "gpt-5.1"}
)

// Encrypted contents of the history: opaque, with the characters JSON
// leaves alone and one it escapes nowhere ("/" stays).
const (
	encA = "gAAAAABpVY4A-encrypted+A/first_step=="
	encB = "gAAAAABpVY4A-encrypted+B/second_step=="
	encC = "gAAAAABpVY4A-encrypted+C/answer=="
)

// reasoningItem is an OpenAI reasoning output item.
func reasoningItem(id, summary, enc string) string {
	return fmt.Sprintf(`{"id":%q,"type":"reasoning","summary":[{"type":"summary_text","text":%q}],"encrypted_content":%q}`, id, summary, enc)
}

// callItem is a function_call output item.
func callItem(id, callID string) string {
	return fmt.Sprintf(`{"id":%q,"type":"function_call","status":"completed","arguments":"{\"q\":\"ttl\"}","call_id":%q,"name":"lookup"}`, id, callID)
}

// messageItem is an assistant message output item.
func messageItem(id, text string) string {
	return fmt.Sprintf(`{"id":%q,"type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":%q}],"role":"assistant"}`, id, text)
}

// body is a whole response holding items.
func body(items ...string) string {
	return `{"id":"resp_1","object":"response","created_at":1767225600,"status":"completed","error":null,"model":"gpt-5.1-2025-11-13","output":[` +
		strings.Join(items, ",") + `],"store":false,"usage":{"input_tokens":10,"output_tokens":20}}`
}

// streamOf is the SSE stream of a whole response as OpenAI sends it:
// created, then per item output_item.added, its deltas (summaries, text and
// arguments in pieces of n bytes) and output_item.done, then completed.
func streamOf(t testing.TB, whole string, n int) string {
	t.Helper()
	root := gjson.Parse(whole)
	if !root.Get("output").IsArray() {
		t.Fatalf("not a response: %s", whole)
	}
	seq := 0
	var b strings.Builder
	ev := func(typ, rest string) {
		fmt.Fprintf(&b, "event: %s\ndata: {\"type\":%q,%s,\"sequence_number\":%d}\n\n", typ, typ, rest, seq)
		seq++
	}
	split := func(s string) []string {
		var out []string
		for len(s) > n {
			out = append(out, s[:n])
			s = s[n:]
		}
		return append(out, s)
	}
	created := strings.Replace(strings.Replace(whole, `"status":"completed"`, `"status":"in_progress"`, 1), root.Get("output").Raw, "[]", 1)
	ev("response.created", `"response":`+created)
	root.Get("output").ForEach(func(k, it gjson.Result) bool {
		i := k.Int()
		id := it.Get("id").Str
		switch it.Get("type").Str {
		case "reasoning":
			ev("response.output_item.added", fmt.Sprintf(`"output_index":%d,"item":{"id":%q,"type":"reasoning","summary":[]}`, i, id))
			it.Get("summary").ForEach(func(sk, part gjson.Result) bool {
				for _, p := range split(part.Get("text").Str) {
					ev("response.reasoning_summary_text.delta", fmt.Sprintf(`"item_id":%q,"output_index":%d,"summary_index":%d,"delta":%s`, id, i, sk.Int(), quote(p)))
				}
				return true
			})
		case "message":
			ev("response.output_item.added", fmt.Sprintf(`"output_index":%d,"item":{"id":%q,"type":"message","status":"in_progress","content":[],"role":"assistant"}`, i, id))
			for _, text := range it.Get("content.#.text").Array() {
				for _, p := range split(text.Str) {
					ev("response.output_text.delta", fmt.Sprintf(`"item_id":%q,"output_index":%d,"content_index":0,"delta":%s`, id, i, quote(p)))
				}
			}
		case "function_call":
			ev("response.output_item.added", fmt.Sprintf(`"output_index":%d,"item":{"id":%q,"type":"function_call","status":"in_progress","arguments":"","call_id":%q,"name":%q}`, i, id, it.Get("call_id").Str, it.Get("name").Str))
			for _, p := range split(it.Get("arguments").Str) {
				ev("response.function_call_arguments.delta", fmt.Sprintf(`"item_id":%q,"output_index":%d,"delta":%s`, id, i, quote(p)))
			}
		default:
			ev("response.output_item.added", fmt.Sprintf(`"output_index":%d,"item":%s`, i, it.Raw))
		}
		ev("response.output_item.done", fmt.Sprintf(`"output_index":%d,"item":%s`, i, it.Raw))
		return true
	})
	ev("response.completed", `"response":`+whole)
	return b.String()
}

func quote(s string) string { return string(engine.AppendQuoted(nil, s)) }

// issuedBy is a dialect capturing for route r.
func issuedBy(t testing.TB, r engine.Route) engine.Dialect {
	return responses.Dialect{Table: enginetest.Table(t)}.ForRoute(r)
}

// capture builds the stored turn of a whole response issued on r.
func capture(t testing.TB, r engine.Route, whole string) engine.Message {
	t.Helper()
	m, err := issuedBy(t, r).Capture([]byte(whole))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// loopSession is a conversation issued on OpenAI: a question, a turn with
// two reasoning steps each before its call (both answered), and an answer
// turn with its own reasoning, then a new question.
func loopSession(t testing.TB) *engine.Session {
	t.Helper()
	calls := capture(t, openaiRoute, body(
		reasoningItem("rs_a", "Check the TTL. [memo:aaaaaaaa]", encA), callItem("fc_a", "call_a"),
		reasoningItem("rs_b", "Check the clock.", encB), callItem("fc_b", "call_b")))
	answer := capture(t, openaiRoute, body(reasoningItem("rs_c", "Both point at CI.", encC), messageItem("msg_c", "The TTL is 0 in CI.")))
	return &engine.Session{ID: "s", Messages: []engine.Message{
		enginetest.User("Why does the cache test fail?"),
		calls,
		enginetest.ToolResult("call_a", "ttl=0"),
		enginetest.ToolResult("call_b", "clock ok"),
		answer,
		enginetest.User("And the fix?"),
	}}
}

// shape shapes s for r with the committed table.
func shape(t testing.TB, s *engine.Session, r engine.Route, req engine.Request) []byte {
	t.Helper()
	table := enginetest.Table(t)
	out, err := responses.Dialect{Table: table}.Shape(s, table.Decide(r, 0), req)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(out) {
		t.Fatalf("shaped body is not JSON: %s", out)
	}
	return out
}

// inputOf lists the input items of a body as compact JSON strings.
func inputOf(b []byte) []string {
	var out []string
	gjson.GetBytes(b, "input").ForEach(func(_, it gjson.Result) bool {
		out = append(out, it.Raw)
		return true
	})
	return out
}
