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

// An OpenRouter round trip written for this test: the answer carries
// reasoning and reasoning_details, and the client replays those two only
// (as OpenRouter's own clients do); the gateways row also sends
// reasoning_content.
const (
	orURL     = "https://openrouter.ai/api/v1/chat/completions"
	orTurn1   = `{"model":"anthropic/claude-sonnet-4.5","messages":[{"role":"user","content":"Ferry or bridge?"}],"reasoning":{"enabled":true}}`
	orAnswer1 = `{"choices":[{"index":0,"message":{"role":"assistant","content":"Bridge.","reasoning":"The bridge is open.","reasoning_details":[{"type":"reasoning.text","text":"The bridge is open.","signature":"c2lnLW9y","format":"anthropic-claude-v1","index":0}]},"finish_reason":"stop"}]}`
	orTurn2   = `{"model":"anthropic/claude-sonnet-4.5","messages":[{"role":"user","content":"Ferry or bridge?"},{"role":"assistant","content":"Bridge.","reasoning":"The bridge is open.","reasoning_details":[{"type":"reasoning.text","text":"The bridge is open.","signature":"c2lnLW9y","format":"anthropic-claude-v1","index":0}]},{"role":"user","content":"Why?"}],"reasoning":{"enabled":true}}`
	orAnswer2 = `{"choices":[{"index":0,"message":{"role":"assistant","content":"It is shorter."},"finish_reason":"stop"}]}`
)

// TestReproductionCreditsDocumentedReads: a carrier the client did not
// send, which the target's profile documents the provider reading, is a
// pass with a note naming the profile — not a failure; a carrier the
// profile does not list stays a failure.
func TestReproductionCreditsDocumentedReads(t *testing.T) {
	dir := t.TempDir()
	writeCassette(t, dir, "openrouter", "replay", []rt{{orURL, orTurn1, 200, orAnswer1, ""}, {orURL, orTurn2, 200, orAnswer2, ""}})
	got := runOne(t, dir)
	r := got[1].repro
	if r.Verdict != report.VerdictPass || len(r.Findings) != 1 || r.Findings[0].Path != "messages.1.reasoning_content" ||
		!strings.Contains(r.Findings[0].Why, "profile openrouter documents the provider reading reasoning_content") {
		t.Errorf("openrouter: %s: %s; findings %+v", r.Verdict, r.Detail, r.Findings)
	}
	if _, ok := documented(nil, []string{"reasoning"}); ok {
		t.Error("no profile documents nothing")
	}
}
