package sim

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/providers"
)

const userQuestion = "What is the weather in Lisbon?"

// wantReasoning is the reasoning the simulator generates for text.
func wantReasoning(text string) string {
	head := []rune(text)
	if len(head) > 60 {
		head = head[:60]
	}
	return "Reasoning on: " + string(head) + ". [memo:" + memoOf(text) + "]"
}

const (
	chatToolRequest   = `{"model":"m1","messages":[{"role":"user","content":"` + userQuestion + `"}],"tools":[{"type":"function","function":{"name":"get_weather","parameters":{}}},{"type":"function","function":{"name":"other"}}]}`
	chatAnswerRequest = `{"model":"m1","messages":[{"role":"system","content":"be brief"},{"role":"user","content":[{"type":"text","text":"` + userQuestion + `"}]}]}`
)

// streamed sets "stream": true on a request body.
func streamed(body string) string { return `{"stream":true,` + body[1:] }

// chatAccumulate folds a chat stream into one message the way a careful
// client does: text carriers concatenated, signatures and opaque blobs
// latest non-empty, reasoning_details merged by index, tool calls by index.
func chatAccumulate(chunks []gjson.Result) map[string]string {
	m := map[string]string{}
	for _, c := range chunks {
		d := c.Get("choices.0.delta")
		for _, f := range []string{"content", "reasoning_content", "reasoning", "reasoning_text"} {
			m[f] += d.Get(f).String()
		}
		if v := d.Get("reasoning_opaque").String(); v != "" {
			m["reasoning_opaque"] = v
		}
		if v := d.Get("extra_content.google.thought_signature").String(); v != "" {
			m["extra_content"] = v
		}
		for _, it := range d.Get("reasoning_details").Array() {
			k := "details." + it.Get("index").String()
			m[k+".type"] = it.Get("type").String()
			m[k+".text"] += it.Get("text").String()
			for _, f := range []string{"signature", "data", "format"} {
				if v := it.Get(f).String(); v != "" {
					m[k+"."+f] = v
				}
			}
		}
		for _, tc := range d.Get("tool_calls").Array() {
			k := "tool." + tc.Get("index").String()
			for _, f := range []string{"id", "function.name", "function.thought_signature", "extra_content.google.thought_signature"} {
				if v := tc.Get(f).String(); v != "" {
					m[k+"."+f] = v
				}
			}
			m[k+".function.arguments"] += tc.Get("function.arguments").String()
		}
		if f := c.Get("choices.0.finish_reason").String(); f != "" {
			m["finish_reason"] = f
		}
	}
	return m
}

// chatFlatten flattens a whole chat message into the accumulator's keys.
func chatFlatten(body gjson.Result) map[string]string {
	msg := body.Get("choices.0.message")
	m := map[string]string{"finish_reason": body.Get("choices.0.finish_reason").String()}
	for _, f := range []string{"content", "reasoning_content", "reasoning", "reasoning_text"} {
		m[f] = msg.Get(f).String()
	}
	if v := msg.Get("reasoning_opaque").String(); v != "" {
		m["reasoning_opaque"] = v
	}
	if v := msg.Get("extra_content.google.thought_signature").String(); v != "" {
		m["extra_content"] = v
	}
	for _, it := range msg.Get("reasoning_details").Array() {
		k := "details." + it.Get("index").String()
		m[k+".type"] = it.Get("type").String()
		m[k+".text"] = it.Get("text").String()
		for _, f := range []string{"signature", "data", "format"} {
			if v := it.Get(f).String(); v != "" {
				m[k+"."+f] = v
			}
		}
	}
	for i, tc := range msg.Get("tool_calls").Array() {
		k := "tool." + string(rune('0'+i))
		for _, f := range []string{"id", "function.name", "function.thought_signature", "extra_content.google.thought_signature", "function.arguments"} {
			if v := tc.Get(f).String(); v != "" {
				m[k+"."+f] = v
			}
		}
	}
	return m
}

func TestChatReply(t *testing.T) {
	reasoning := wantReasoning(userQuestion)
	tests := []struct {
		reason  string
		profile *providers.Profile
		request string
		// want are flattened keys and their exact values; "*" means any
		// non-empty value.
		want map[string]string
		// absent keys must not be in the message.
		absent []string
	}{
		{
			reason:  "reasoning_content provider (DeepSeek-like) answers a tool call",
			profile: profile("rc", modeChat, []string{"reasoning_content"}),
			request: chatToolRequest,
			want: map[string]string{
				"reasoning_content": reasoning, "tool.0.function.name": "get_weather",
				"tool.0.function.arguments": "{}", "finish_reason": "tool_calls", "content": "",
			},
			absent: []string{"reasoning", "details.0.type", "reasoning_opaque"},
		},
		{
			reason:  "gateway with signed reasoning_details (OpenRouter/Claude-like) answers text",
			profile: profile("gw", modeChat, []string{"reasoning", "reasoning_details"}, format("anthropic-claude-v1"), signing(providers.SchemeThinkingSignature, "reasoning_details")),
			request: chatAnswerRequest,
			want: map[string]string{
				"reasoning": reasoning, "details.0.type": "reasoning.text", "details.0.text": reasoning,
				"details.0.signature": "*", "details.0.format": "anthropic-claude-v1",
				"content": "Answer. No earlier reasoning in context.", "finish_reason": "stop",
			},
			absent: []string{"reasoning_content", "details.1.type"},
		},
		{
			reason:  "encrypted-details signing adds a reasoning.encrypted item",
			profile: profile("enc", modeChat, []string{"reasoning", "reasoning_details"}, format("openai-responses-v1"), signing(providers.SchemeEncryptedDetails, "reasoning_details")),
			request: chatToolRequest,
			want: map[string]string{
				"details.0.type": "reasoning.text", "details.0.signature": "*", "details.1.type": "reasoning.encrypted", "details.1.data": "*",
				"details.1.format": "openai-responses-v1", "tool.0.function.name": "get_weather",
			},
		},
		{
			reason:  "Copilot carries reasoning_text, reasoning_opaque and function.thought_signature",
			profile: profile("copilot", modeChat, []string{"reasoning_text", "reasoning_opaque"}, signing(providers.SchemeReasoningOpaque, "reasoning_opaque")),
			request: chatToolRequest,
			want: map[string]string{
				"reasoning_text": reasoning, "reasoning_opaque": "*", "tool.0.function.thought_signature": "*",
			},
			absent: []string{"reasoning_content", "reasoning"},
		},
		{
			reason:  "Gemini OpenAI-compatible puts the thought signature on the tool call",
			profile: profile("gemini-openai", modeChat, []string{"extra_content"}, signing(providers.SchemeThoughtSignature, "extra_content.google.thought_signature")),
			request: chatToolRequest,
			want:    map[string]string{"tool.0.extra_content.google.thought_signature": "*"},
			absent:  []string{"extra_content", "reasoning_content"},
		},
		{
			reason:  "Gemini OpenAI-compatible puts the text-turn signature on the message",
			profile: profile("gemini-openai", modeChat, []string{"extra_content"}, signing(providers.SchemeThoughtSignature, "extra_content.google.thought_signature")),
			request: chatAnswerRequest,
			want:    map[string]string{"extra_content": "*", "content": "Answer. No earlier reasoning in context."},
		},
		{
			reason:  "unsigned reasoning_details (MiniMax-like) carry no signature",
			profile: profile("mm", modeChat, []string{"reasoning_details"}, format("MiniMax-response-v1")),
			request: chatAnswerRequest,
			want:    map[string]string{"details.0.text": reasoning, "details.0.format": "MiniMax-response-v1"},
			absent:  []string{"details.0.signature", "reasoning"},
		},
	}
	for _, tt := range tests {
		s := newSim(t, tt.profile, testSeed)
		whole := post(s, "/v1/chat/completions", tt.request)
		if whole.Code != 200 {
			t.Fatalf("%s: whole: status %d: %s", tt.reason, whole.Code, whole.Body)
		}
		flat := chatFlatten(mustJSON(t, whole))
		rec := post(s, "/v1/chat/completions", streamed(tt.request))
		if ct := rec.Header().Get("Content-Type"); rec.Code != 200 || ct != "text/event-stream" {
			t.Fatalf("%s: stream: status %d, content type %q", tt.reason, rec.Code, ct)
		}
		chunks, done := sseJSON(t, rec.Body.String())
		if !done {
			t.Errorf("%s: stream does not end with data: [DONE]", tt.reason)
		}
		acc := chatAccumulate(chunks)
		for name, got := range map[string]map[string]string{"whole": flat, "stream": acc} {
			for k, want := range tt.want {
				switch v := got[k]; {
				case want == "*" && v == "":
					t.Errorf("%s: %s: %s is missing", tt.reason, name, k)
				case want != "*" && v != want:
					t.Errorf("%s: %s: %s = %q, want %q", tt.reason, name, k, v, want)
				}
			}
			for _, k := range tt.absent {
				if got[k] != "" {
					t.Errorf("%s: %s: %s = %q, want absent", tt.reason, name, k, got[k])
				}
			}
		}
		for k, v := range flat {
			// Tool-call ids derive from the body, which differs by "stream".
			if k != "tool.0.id" && acc[k] != v {
				t.Errorf("%s: stream accumulates %s = %q, whole has %q", tt.reason, k, acc[k], v)
			}
		}
		checkChatSignatures(t, tt.reason, s, flat)
		textCarrier := flat["reasoning_content"]+flat["reasoning"]+flat["reasoning_text"]+flat["details.0.text"] != ""
		checkChatStreamOrder(t, tt.reason, chunks, textCarrier)
	}
}

// checkChatSignatures verifies every signature and blob the answer carries.
func checkChatSignatures(t *testing.T, reason string, s *Simulator, m map[string]string) {
	t.Helper()
	reasoning := wantReasoning(userQuestion)
	if sig := m["details.0.signature"]; sig != "" && (!s.g.verify(reasoning, sig) || sig != s.Sign(reasoning)) {
		t.Errorf("%s: reasoning_details signature does not verify", reason)
	}
	for _, k := range []string{"details.1.data", "reasoning_opaque"} {
		if blob := m[k]; blob != "" {
			b, ok := s.g.open(blob)
			if !ok || !b.genuine || b.model != "m1" || b.text != reasoning {
				t.Errorf("%s: %s does not open as a genuine blob for m1: %+v", reason, k, b)
			}
		}
	}
	for _, k := range []string{"extra_content", "tool.0.extra_content.google.thought_signature", "tool.0.function.thought_signature"} {
		if sig := m[k]; sig != "" {
			if text, ok := s.g.checkThought(sig); !ok || text != reasoning {
				t.Errorf("%s: %s is not a genuine thought signature", reason, k)
			}
		}
	}
}

// checkChatStreamOrder checks that text carriers arrive in several deltas
// and signatures and opaque blobs after the last reasoning text.
func checkChatStreamOrder(t *testing.T, reason string, chunks []gjson.Result, textCarrier bool) {
	t.Helper()
	lastText, firstSig, textDeltas := -1, -1, 0
	for i, c := range chunks {
		d := c.Get("choices.0.delta")
		if d.Get("reasoning_content").String()+d.Get("reasoning").String()+d.Get("reasoning_text").String()+d.Get("reasoning_details.0.text").String() != "" {
			lastText = i
			textDeltas++
		}
		if firstSig < 0 && (d.Get("reasoning_details.#(signature!=\"\").signature").String() != "" || d.Get("reasoning_opaque").String() != "" || d.Get("reasoning_details.#(type==\"reasoning.encrypted\")").Exists()) {
			firstSig = i
		}
	}
	if textCarrier && textDeltas < 3 {
		t.Errorf("%s: reasoning arrives in %d deltas, want at least 3", reason, textDeltas)
	}
	if firstSig >= 0 && firstSig < lastText {
		t.Errorf("%s: a signature arrives in chunk %d, before the last reasoning text in chunk %d", reason, firstSig, lastText)
	}
	if !strings.Contains(chunks[len(chunks)-1].Raw, `"usage"`) {
		t.Errorf("%s: the last chunk carries no usage", reason)
	}
}
