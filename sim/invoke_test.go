package sim

import (
	"encoding/base64"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/providers"
)

// TestAnthropicToolLoopRule checks that the "thinking must precede
// tool_use" refusal looks only at the in-flight tool loop: a new user
// question closes the loop.
func TestAnthropicToolLoopRule(t *testing.T) {
	p := profile("claude", modeAnthropic, []string{"thinking"}, withRule(providers.Condition{Kind: providers.ConditionToolTurnFieldMissing, Field: "thinking"}))
	s := newSim(t, p, testSeed)
	const head = `{"model":"claude-opus-4-6","max_tokens":10,"thinking":{"type":"enabled","budget_tokens":5},"messages":[` +
		`{"role":"user","content":"q1"},{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"f","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"r"}]}`
	tests := []struct {
		body   string
		status int
		reason string
	}{
		{head + `]}`, 400, "the open tool loop's tool_use lacks its thinking"},
		{head + `,{"role":"assistant","content":[{"type":"text","text":"a"}]},{"role":"user","content":"q2"}]}`, 200, "a new user question closes the loop: earlier turns may lack thinking"},
	}
	for _, tt := range tests {
		if rec := post(s, "/v1/messages", tt.body); rec.Code != tt.status {
			t.Errorf("status %d, want %d: %s: %s", rec.Code, tt.status, tt.reason, rec.Body.String())
		}
	}
}

// TestInvokeModelStream checks Bedrock InvokeModel streaming: Anthropic
// events, base64, in event-stream "chunk" frames.
func TestInvokeModelStream(t *testing.T) {
	p := profile("bedrock-claude", modeAnthropic, []string{"thinking"}, signing(providers.SchemeThinkingSignature, "thinking.signature"))
	s := newSim(t, p, testSeed)
	rec := post(s, "/model/us.anthropic.claude-opus-4-6-v1%3A0/invoke-with-response-stream",
		`{"anthropic_version":"bedrock-2023-05-31","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/vnd.amazon.eventstream" {
		t.Fatalf("status %d content type %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	frames := decodeFrames(t, rec.Body.Bytes())
	var types []string
	for _, f := range frames {
		if f.typ != "chunk" {
			t.Fatalf("frame type %q, want chunk", f.typ)
		}
		raw, err := base64.StdEncoding.DecodeString(f.payload.Get("bytes").Str)
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, gjson.GetBytes(raw, "type").Str)
	}
	if len(types) < 5 || types[0] != "message_start" || types[len(types)-1] != "message_stop" {
		t.Errorf("chunk events %v: want a whole Anthropic event sequence", types)
	}
}
