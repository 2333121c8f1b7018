package gemini_test

import (
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/chat"
	"github.com/replaycheck/replaycheck/engine/gemini"
	"github.com/tidwall/gjson"
)

// TestGeminiTextSignature is hermes-semantics §7 group C (31, 32): the
// text-turn signature of a native response, whole or streamed as a
// trailing empty text part, replays on the last part of the model turn
// from live history (the message-level extra_content) and from resumed,
// record-only history alike; on the OpenAI-compatible route the same
// record becomes the message's extra_content.
func TestGeminiTextSignature(t *testing.T) {
	captured := capture(t, wholeCases[0].body)
	streamed, err := gemini.Dialect{}.CaptureStream(strings.NewReader(
		"data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"391\"}]},\"index\":0}]}\r\n\r\n" +
			"data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"\",\"thoughtSignature\":\"SIG_S\"}]},\"finishReason\":\"STOP\",\"index\":0}]}\r\n\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	live := engine.Message{Role: "assistant", Content: []byte(`"391"`), ExtraContent: engine.GoogleExtraContent(sigText)}
	tests := []struct {
		name   string
		m      func(t *testing.T) engine.Message
		sig    string
		reason string
	}{
		{"live-extra-content", func(*testing.T) engine.Message { return live }, sigText, "live history: the message-level extra_content"},
		{"captured", func(*testing.T) engine.Message { return captured }, sigText, "a captured turn: the record"},
		{"resumed", func(t *testing.T) engine.Message {
			return resume(t, &engine.Session{ID: "r", Messages: []engine.Message{captured}}).Messages[0]
		}, sigText, "resumed history: the record alone"},
		{"streamed-trailing-part", func(*testing.T) engine.Message { return streamed }, "SIG_S", "a stream's trailing empty text part (hermes 32)"},
	}
	tbl := enginetest.Table(t)
	compat := tbl.Decide(engine.Route{APIMode: engine.ModeChat, Provider: "gemini", BaseURL: "https://generativelanguage.googleapis.com/v1beta/openai", Model: "gemini-3-pro-preview"}, 0)
	for _, tc := range tests {
		m := tc.m(t)
		s := &engine.Session{Messages: []engine.Message{enginetest.User("389+2?"), m, enginetest.User("and +1?")}}
		parts := gjson.GetBytes(shape(t, s, engine.Request{}), "contents.1.parts")
		last := parts.Get("@reverse.0")
		if got := parts.Get("#").Int(); got != 1 || last.Get("text").Str != "391" || last.Get("thoughtSignature").Str != tc.sig {
			t.Errorf("%s: %s: model parts %s", tc.name, tc.reason, parts.Raw)
		}
		body, err := chat.Dialect{}.Shape(s, compat, engine.Request{})
		if err != nil {
			t.Fatal(err)
		}
		if got := gjson.GetBytes(body, "messages.1.extra_content.google.thought_signature").Str; got != tc.sig {
			t.Errorf("%s: the OpenAI-compatible route got extra_content %q, want %q", tc.name, got, tc.sig)
		}
		if strings.Contains(string(body), engine.RecordType) {
			t.Errorf("%s: the private record reached a wire", tc.name)
		}
	}
}

// copilotResponse is a GitHub Copilot chat completion with its native
// carriers (hermes-semantics §7, 33).
const copilotResponse = `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"reasoning_text":"plan it","reasoning_opaque":"OPAQUE","tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{}","thought_signature":"FSIG"}}]}}]}`

// TestCopilotCarriers is group C (33, 34), through the chat dialect: the
// Copilot route gets the opaque blob, its readable text and the per-call
// signature, and no reasoning_details; Fireworks and OpenRouter with a
// Claude model get none of them; the stored row never changes.
func TestCopilotCarriers(t *testing.T) {
	tbl := enginetest.Table(t)
	m, err := chat.Dialect{}.Capture([]byte(copilotResponse))
	if err != nil {
		t.Fatal(err)
	}
	if m.Reasoning == nil || *m.Reasoning != "plan it" {
		t.Fatalf("stored reasoning %v, want \"plan it\"", m.Reasoning)
	}
	s := &engine.Session{Messages: []engine.Message{enginetest.User("read it"), m, enginetest.ToolResult("call_1", "file")}}
	before := snapshot(t, s)
	tests := []struct {
		name, provider, baseURL, model string
		copilot                        bool
		reason                         string
	}{
		{"copilot", "copilot", "https://api.githubcopilot.com", "gemini-3-pro-preview", true, "the Copilot host reads its own carriers"},
		{"fireworks", "fireworks", "https://api.fireworks.ai/inference/v1", "accounts/fireworks/models/claude", false, "Fireworks never sees Copilot fields"},
		{"openrouter", "openrouter", "https://openrouter.ai/api/v1", "anthropic/claude-sonnet-4.5", false, "OpenRouter never sees Copilot fields"},
	}
	for _, tc := range tests {
		d := tbl.Decide(engine.Route{APIMode: engine.ModeChat, Provider: tc.provider, BaseURL: tc.baseURL, Model: tc.model}, 0)
		body, err := chat.Dialect{}.Shape(s, d, engine.Request{})
		if err != nil {
			t.Fatal(err)
		}
		a := gjson.GetBytes(body, "messages.1")
		got := a.Get("reasoning_opaque").Str == "OPAQUE" && a.Get("reasoning_text").Str == "plan it" && a.Get("tool_calls.0.function.thought_signature").Str == "FSIG"
		none := !a.Get("reasoning_opaque").Exists() && !a.Get("reasoning_text").Exists() && !a.Get("tool_calls.0.function.thought_signature").Exists() && !a.Get("extra_content").Exists()
		if tc.copilot && (!got || a.Get("reasoning_details").Exists()) {
			t.Errorf("%s: %s: %s", tc.name, tc.reason, a.Raw)
		}
		if !tc.copilot && !none {
			t.Errorf("%s: %s: %s", tc.name, tc.reason, a.Raw)
		}
		if strings.Contains(string(body), engine.RecordType) {
			t.Errorf("%s: the private record reached a wire", tc.name)
		}
	}
	if snapshot(t, s) != before {
		t.Error("shaping changed the stored row")
	}
}
