package chat_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/chat"
	"github.com/tidwall/gjson"
)

// sse frames chunks as chat.completion.chunk events.
func sse(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\n\n")
	}
	b.WriteString("data: [DONE]\n\n")
	return b.String()
}

func delta(d string) string {
	return `{"object":"chat.completion.chunk","choices":[{"index":0,"delta":` + d + `}]}`
}

func TestCaptureWholeEqualsStream(t *testing.T) {
	tests := []struct {
		name   string
		whole  string
		stream string
		check  func(m engine.Message) string
		reason string
	}{
		{
			name:  "deepseek reasoning_content and a tool call",
			whole: `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"reasoning_content":"Let me think. Then act.","tool_calls":[{"id":"call_a","type":"function","function":{"name":"lookup","arguments":"{\"q\":\"x\"}"}}]},"finish_reason":"tool_calls"}]}`,
			stream: sse(delta(`{"role":"assistant","content":null,"reasoning_content":""}`), delta(`{"reasoning_content":"Let me think. "}`), delta(`{"reasoning_content":"Then act."}`),
				delta(`{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"lookup","arguments":""}}]}`),
				delta(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"q\":"}}]}`), delta(`{"tool_calls":[{"index":0,"function":{"arguments":"\"x\"}"}}]}`)),
			check: func(m engine.Message) string {
				if m.ReasoningContent == nil || *m.ReasoningContent != "Let me think. Then act." || m.ToolCalls[0].Function.Arguments != `{"q":"x"}` {
					return "RC and tool arguments accumulate"
				}
				return ""
			},
			reason: "text carriers concatenate, tool calls accumulate by index",
		},
		{
			name:  "openrouter reasoning + details with a late signature",
			whole: `{"choices":[{"message":{"role":"assistant","content":"Done.","reasoning":"Plan.","reasoning_details":[{"type":"reasoning.text","text":"Plan.","signature":"c2lnLTE=","format":"anthropic-claude-v1","index":0},{"type":"reasoning.encrypted","data":"ZW5j","id":"enc_1","format":"anthropic-claude-v1","index":1}]}}]}`,
			stream: sse(delta(`{"role":"assistant","reasoning":"Pl","reasoning_details":[{"type":"reasoning.text","text":"Pl","format":"anthropic-claude-v1","index":0}]}`),
				delta(`{"reasoning":"an.","reasoning_details":[{"type":"reasoning.text","text":"an.","format":"anthropic-claude-v1","index":0}]}`),
				delta(`{"reasoning_details":[{"type":"reasoning.text","signature":"c2lnLTE=","format":"anthropic-claude-v1","index":0}]}`),
				delta(`{"reasoning_details":[{"type":"reasoning.encrypted","data":"ZW5j","id":"enc_1","format":"anthropic-claude-v1","index":1}]}`),
				delta(`{"content":"Done."}`)),
			check: func(m engine.Message) string {
				if len(m.ReasoningDetails) != 2 || gjson.GetBytes(m.ReasoningDetails[0], "signature").String() != "c2lnLTE=" || gjson.GetBytes(m.ReasoningDetails[0], "text").String() != "Plan." {
					return "details merge by index with the signature byte for byte"
				}
				return ""
			},
			reason: "the signature-only delta lands on its item",
		},
		{
			name:  "copilot opaque: latest non-empty wins, text becomes R",
			whole: `{"choices":[{"message":{"role":"assistant","content":null,"reasoning_text":"plan it","reasoning_opaque":"OPAQUE-2","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}","thought_signature":"FSIG"}}]}}]}`,
			stream: sse(delta(`{"role":"assistant","reasoning_text":"plan ","reasoning_opaque":"OPAQUE-1"}`), delta(`{"reasoning_text":"it","reasoning_opaque":""}`),
				delta(`{"reasoning_opaque":"OPAQUE-2","tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"f","arguments":"{}","thought_signature":"FSIG"}}]}`)),
			check: func(m engine.Message) string {
				v, ok := m.Record()
				if !ok || v.ReasoningOpaque != "OPAQUE-2" || v.ReasoningText != "plan it" || m.Reasoning == nil || *m.Reasoning != "plan it" || m.ToolCalls[0].Function.ThoughtSignature != "FSIG" {
					return "record holds the latest opaque and the text; R is the text"
				}
				return ""
			},
			reason: "C33",
		},
		{
			name:  "gemini-compatible signatures on the message and the call",
			whole: `{"choices":[{"message":{"role":"assistant","content":"391","extra_content":{"google":{"thought_signature":"SIG_TEXT"}},"tool_calls":[{"id":"c9","type":"function","function":{"name":"f","arguments":"{}"},"extra_content":{"google":{"thought_signature":"SIG_CALL"}}}]}}]}`,
			stream: sse(delta(`{"role":"assistant","content":"39","extra_content":{"google":{"thought_signature":"SIG_TEXT"}}}`), delta(`{"content":"1"}`),
				delta(`{"tool_calls":[{"index":0,"id":"c9","type":"function","function":{"name":"f","arguments":"{}"},"extra_content":{"google":{"thought_signature":"SIG_CALL"}}}]}`)),
			check: func(m engine.Message) string {
				v, _ := m.Record()
				if v.ThoughtSignature != "SIG_TEXT" || engine.ThoughtSignatureOf(m.ToolCalls[0].ExtraContent) != "SIG_CALL" {
					return "text signature in the record, call signature on the call"
				}
				return ""
			},
			reason: "C32",
		},
		{
			name:   "reused index with a new id opens a new call",
			whole:  `{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"g","arguments":"{}"}}]}}]}`,
			stream: sse(delta(`{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]}`), delta(`{"tool_calls":[{"index":0,"id":"b","type":"function","function":{"name":"g","arguments":"{}"}}]}`)),
			check: func(m engine.Message) string {
				if len(m.ToolCalls) != 2 || m.ToolCalls[1].Function.Name != "g" {
					return "two calls"
				}
				return ""
			},
			reason: "Ollama-style index reuse",
		},
	}
	for _, tt := range tests {
		whole, err := chat.Dialect{}.Capture([]byte(tt.whole))
		if err != nil {
			t.Fatalf("%s: whole: %v", tt.name, err)
		}
		streamed, err := chat.Dialect{}.CaptureStream(strings.NewReader(tt.stream))
		if err != nil {
			t.Fatalf("%s: stream: %v", tt.name, err)
		}
		w, s := mustJSON(t, whole), mustJSON(t, streamed)
		if w != s {
			t.Errorf("%s: whole and streamed capture differ (%s):\n%s\n%s", tt.name, tt.reason, w, s)
		}
		if msg := tt.check(whole); msg != "" {
			t.Errorf("%s: %s: %s", tt.name, msg, w)
		}
		var back engine.Message
		if err := json.Unmarshal([]byte(w), &back); err != nil || mustJSON(t, back) != w {
			t.Errorf("%s: storage round trip changed the message: %v", tt.name, err)
		}
	}
}

func TestStreamEndsWithFinishReason(t *testing.T) {
	stream := "data: {\"choices\":[{\"delta\":{\"content\":\"a\"},\"finish_reason\":null}]}\n\n" +
		"data: {\"choices\":[{\"finish_reason\":\"stop\",\"index\":0,\"delta\":{}}]}\n\n"
	m, err := chat.Dialect{}.CaptureStream(strings.NewReader(stream))
	if err != nil || string(m.Content) != `"a"` {
		t.Errorf("a stream ending with choice 0's finish_reason and no [DONE] is whole: %s, %v", m.Content, err)
	}
}

func TestCaptureErrors(t *testing.T) {
	tests := []struct {
		stream bool
		input  string
		want   string
		reason string
	}{
		{false, `{"choices":[`, "response body is not valid JSON at offset 12", "a truncated body names the offset where it ends"},
		{false, `{"error":{"message":"boom"}}`, "response is an error", "an error body is not a message"},
		{false, `{"choices":[]}`, "no choices.0.message", "no choice"},
		{true, "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\ndata: {not json}\n\n", "offset 47", "a bad chunk names its byte offset"},
		{true, "data: [DONE]\n\n", "no chunk events", "an empty stream is an error, not an empty message"},
		{true, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"},\"finish_reason\":null}]}\n\n", "ended at offset 78 before a finish_reason or [DONE] (truncated)", "a stream cut between events is named truncated, not taken as the whole answer"},
		{true, "data: {\"choices\":[{\"finish_reason\":\"stop\",\"index\":1,\"delta\":{}}]}\n\n", "before a finish_reason or [DONE] (truncated)", "only choice 0's finish_reason ends the answer, whatever the member order"},
		{true, "data: {\"error\":{\"code\":\"400\",\"message\":\"Param Incorrect\"}}\n\n", "is an error", "an SSE-framed error (MiMo)"},
	}
	for _, tt := range tests {
		var err error
		if tt.stream {
			_, err = chat.Dialect{}.CaptureStream(strings.NewReader(tt.input))
		} else {
			_, err = chat.Dialect{}.Capture([]byte(tt.input))
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want it to mention %q: %s", tt.input, err, tt.want, tt.reason)
		}
	}
}
