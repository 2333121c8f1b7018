package evidence

import (
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/report"
)

// A tool round trip written for this test in the shape real OpenAI-style
// clients replay to local servers: the answer's content is null beside
// its tool calls, and the client sends the turn back without a content
// key (the shape of the llama.cpp, OpenRouter and Vercel AI Gateway
// cassettes the import read, e.g. the OpenAI Python SDK's
// model_dump(exclude_none=True) in pydantic-ai's tests).
const (
	localURL    = "http://localhost:8080/v1/chat/completions"
	localTurn1  = `{"model":"qwen3.6-35b","messages":[{"role":"user","content":"How far is the pier?"}]}`
	localAnswer = `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_7","type":"function","function":{"name":"distance","arguments":"{\"to\":\"pier\"}"}}]},"finish_reason":"tool_calls"}]}`
	localTurn2  = `{"model":"qwen3.6-35b","messages":[{"role":"user","content":"How far is the pier?"},{"role":"assistant","tool_calls":[{"id":"call_7","type":"function","function":{"name":"distance","arguments":"{\"to\":\"pier\"}"}}]},{"role":"tool","tool_call_id":"call_7","content":"3 km"}]}`
	localDone   = `{"choices":[{"index":0,"message":{"role":"assistant","content":"3 km."},"finish_reason":"stop"}]}`
)

// TestReproductionHonoursDeclaredDifferences: the engine's null content
// beside tool calls, where the client sent none, is a difference the
// llama-cpp profile declares harmless (tool_call_content), so the
// reproduction passes with a note citing the declaration, as cassette
// matching would answer it.
func TestReproductionHonoursDeclaredDifferences(t *testing.T) {
	dir := t.TempDir()
	writeCassette(t, dir, "llama-cpp", "tool-null-content", []rt{{localURL, localTurn1, 200, localAnswer, ""}, {localURL, localTurn2, 200, localDone, ""}})
	got := runOne(t, dir)
	i := slices.IndexFunc(got, func(g exchangeResult) bool { return g.id == "llama-cpp/recorded/tool-null-content.yaml#1" })
	if i < 0 {
		t.Fatalf("no second exchange: %+v", got)
	}
	r := got[i].repro
	if r.Verdict != report.VerdictPass {
		t.Fatalf("reproduction %s: %s; findings %+v", r.Verdict, r.Detail, r.Findings)
	}
	if len(r.Findings) != 1 || r.Findings[0].Path != "messages.1" || r.Findings[0].Verdict != report.VerdictPass ||
		!strings.Contains(r.Findings[0].Why, "tool_call_content, which profile llama-cpp declares harmless (https://platform.openai.com/docs/api-reference/chat/create, partial)") {
		t.Errorf("findings %+v: want one note citing the declaration", r.Findings)
	}
}
