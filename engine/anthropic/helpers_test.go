package anthropic_test

import (
	"bytes"
	"encoding/json"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/anthropic"
	"github.com/tidwall/gjson"
)

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func blockTypes(m engine.Message) []string {
	var out []string
	for _, b := range m.Native.Blocks {
		out = append(out, gjson.GetBytes(b, "type").Str)
	}
	return out
}

// sameJSON compares two JSON texts ignoring key order and whitespace;
// strings are compared exactly.
func sameJSON(a, b string) bool {
	var va, vb any
	if json.Unmarshal([]byte(a), &va) != nil || json.Unmarshal([]byte(b), &vb) != nil {
		return false
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return bytes.Equal(ja, jb)
}

// capture builds a stored turn from a whole response body.
func capture(t testing.TB, body string) engine.Message {
	t.Helper()
	m, err := anthropic.Dialect{}.Capture([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Signatures of the route-table history.
const (
	sigPrior = "EpriorSIGbase64+/=="
	sigLoop1 = "Eloop1SIGbase64+/=="
	sigLoop2 = "Eloop2SIGbase64+/=="
)

// loopHistory is a prior answered turn and an in-flight tool loop of two
// steps, each with signed thinking before its tool_use.
func loopHistory(t testing.TB) *engine.Session {
	t.Helper()
	return &engine.Session{ID: "loop", Messages: []engine.Message{
		enginetest.User("What is 2+2?"),
		capture(t, `{"content":[{"type":"thinking","thinking":"prior thought","signature":"`+sigPrior+`"},{"type":"text","text":"4"}]}`),
		enginetest.User("Weather in Paris, then the time?"),
		capture(t, `{"content":[{"type":"thinking","thinking":"loop one","signature":"`+sigLoop1+`"},{"type":"tool_use","id":"toolu_1","name":"weather","input":{"city":"Paris"}}]}`),
		enginetest.ToolResult("toolu_1", "sunny"),
		capture(t, `{"content":[{"type":"thinking","thinking":"loop two","signature":"`+sigLoop2+`"},{"type":"tool_use","id":"toolu_2","name":"clock","input":{}}]}`),
		enginetest.ToolResult("toolu_2", "noon"),
	}}
}

// shape builds a request for a route with the committed table.
func shape(t testing.TB, tbl *engine.Table, s *engine.Session, baseURL, model string) []byte {
	t.Helper()
	dl := anthropic.Dialect{Table: tbl}
	r := engine.Route{APIMode: engine.ModeAnthropic, Provider: "p", BaseURL: baseURL, Model: model}
	body, err := dl.Shape(s, tbl.Decide(r, s.Config.RejectedFor(r.Key())), engine.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if !gjson.ValidBytes(body) {
		t.Fatalf("shaped body is not JSON: %s", body)
	}
	assertSignaturesFromHistory(t, body, s)
	return body
}

// wireSignatures lists the thinking signatures and redacted data of a
// request's assistant messages, in order.
func wireSignatures(body []byte) []string {
	out := []string{}
	gjson.GetBytes(body, "messages").ForEach(func(_, m gjson.Result) bool {
		m.Get("content").ForEach(func(_, b gjson.Result) bool {
			if s := b.Get("signature").Str; s != "" {
				out = append(out, s)
			}
			if d := b.Get("data").Str; d != "" && b.Get("type").Str == "redacted_thinking" {
				out = append(out, d)
			}
			return true
		})
		return true
	})
	return out
}

// wireThinking lists the thinking texts of a request, in order.
func wireThinking(body []byte) []string {
	out := []string{}
	gjson.GetBytes(body, "messages").ForEach(func(_, m gjson.Result) bool {
		m.Get("content").ForEach(func(_, b gjson.Result) bool {
			if b.Get("type").Str == "thinking" {
				out = append(out, b.Get("thinking").Str)
			}
			return true
		})
		return true
	})
	return out
}

// assertSignaturesFromHistory fails when a request carries a signature or
// redacted blob that the session's history does not hold byte for byte:
// the engine never produces a tampered signature.
func assertSignaturesFromHistory(t testing.TB, body []byte, s *engine.Session) {
	t.Helper()
	held := enginetest.HeldOpaque(s, "signature", "data")
	for _, sig := range wireSignatures(body) {
		if !held[sig] {
			t.Errorf("the request carries an opaque value the history does not hold: %.40q", sig)
		}
	}
}

// snapshot is a deep JSON image of a session, to prove shaping never
// mutates it.
func snapshot(t testing.TB, s *engine.Session) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
