package chat_test

import (
	"encoding/json"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/chat"
	"github.com/tidwall/gjson"
)

// fuzzRoutes covers every kind of row: strict, must-echo, gateways,
// details vendors, local, default, Gemini and Copilot native fields.
var fuzzRoutes = []engine.Route{
	{Provider: "mistral", BaseURL: "https://api.mistral.ai/v1", Model: "deepseek-r1"},
	{Provider: "custom", BaseURL: "https://api.groq.com/openai/v1", Model: "m"},
	{Provider: "deepseek", BaseURL: "https://api.deepseek.com", Model: "deepseek-v4"},
	{Provider: "kimi-coding", BaseURL: "https://api.kimi.com/coding/v1", Model: "kimi-k2.6"},
	{Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "deepseek/deepseek-v3"},
	{Provider: "novita", BaseURL: "https://api.novita.ai/openai/v1", Model: "m"},
	{Provider: "custom", BaseURL: "http://127.0.0.1:8080/v1", Model: "m"},
	{Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-5"},
	{Provider: "gemini", BaseURL: "https://generativelanguage.googleapis.com/v1beta/openai", Model: "my-alias"},
	{Provider: "copilot", BaseURL: "https://api.githubcopilot.com", Model: "gemini-3-pro"},
	{Provider: "fireworks", BaseURL: "https://api.fireworks.ai/inference/v1", Model: "m"},
}

// genSession derives a session from fuzz bytes: each step reads a byte that
// chooses the message's role and which carriers it holds.
func genSession(data []byte) *engine.Session {
	s := &engine.Session{}
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	text := func() string {
		n := int(next() % 12)
		if n > len(data) {
			n = len(data)
		}
		t := string(data[:n])
		data = data[n:]
		return t
	}
	for len(data) > 0 && len(s.Messages) < 64 {
		op := next()
		switch op % 4 {
		case 0:
			s.Messages = append(s.Messages, engine.Message{Role: "user", Content: json.RawMessage(engine.AppendQuoted(nil, text()))})
		case 1:
			s.Messages = append(s.Messages, engine.Message{Role: "tool", ToolCallID: text(), Content: json.RawMessage(engine.AppendQuoted(nil, text()))})
		default:
			m := engine.Message{Role: "assistant", Content: json.RawMessage(engine.AppendQuoted(nil, text()))}
			if op&4 != 0 {
				m.ReasoningContent = engine.Str(text())
			}
			if op&8 != 0 {
				m.Reasoning = engine.Str(text())
			}
			if op&16 != 0 {
				m.ReasoningDetails = append(m.ReasoningDetails, json.RawMessage(`{"type":"reasoning.encrypted","data":`+string(engine.AppendQuoted(nil, text()))+`}`))
			}
			if op&32 != 0 {
				m.ToolCalls = []engine.ToolCall{{ID: text(), Type: "function", Function: engine.FunctionCall{Name: "f", Arguments: "{}", ThoughtSignature: text()},
					ExtraContent: engine.GoogleExtraContent(text())}}
			}
			if op&64 != 0 {
				m.SetRecord(engine.NativeValues{ThoughtSignature: text(), ReasoningOpaque: text(), ReasoningText: text()})
			}
			s.Messages = append(s.Messages, m)
		}
	}
	return s
}

// FuzzShapeInvariants checks SPEC §9 over random sessions × routes.
func FuzzShapeInvariants(f *testing.F) {
	f.Add([]byte("\x22\x05hello\x3e\x03abc\x00\x02hi\x7fxyz"), uint8(2), false)
	f.Add([]byte("\x20\x20\x01\x7e\x04abcd\x05zzzzz"), uint8(0), true)
	f.Add([]byte("\x7f\x7f\x7f\x7f\x7f\x7f"), uint8(9), false)
	table := enginetest.Table(f)
	f.Fuzz(func(t *testing.T, data []byte, routeIdx uint8, optIn bool) {
		s := genSession(data)
		r := fuzzRoutes[int(routeIdx)%len(fuzzRoutes)]
		r.EchoOptIn = optIn
		d := table.Decide(r, 0)
		before, _ := json.Marshal(s)
		a, err := chat.Dialect{}.Shape(s, d, engine.Request{})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := chat.Dialect{}.Shape(s, d, engine.Request{})
		after, _ := json.Marshal(s)
		if string(before) != string(after) {
			t.Fatal("invariant 1: shaping mutated the session")
		}
		if string(a) != string(b) {
			t.Fatal("invariant 2: same inputs, different bytes")
		}
		if !gjson.ValidBytes(a) {
			t.Fatalf("invalid JSON: %q", a)
		}
		mustEcho := table.EchoFamily(r) != "" && d.Carriers.Has(engine.ReasoningContent)
		gjson.GetBytes(a, "messages").ForEach(func(k, m gjson.Result) bool {
			if d.Row == "strict" {
				for _, c := range engine.AllCarriers {
					if m.Get(string(c)).Exists() {
						t.Fatalf("invariant 3: strict route got %s on messages.%d", c, k.Int())
					}
				}
			}
			if mustEcho && m.Get("role").String() == "assistant" && m.Get("tool_calls").IsArray() &&
				m.Get("reasoning_content").String() == "" {
				t.Fatalf("invariant 4: must-echo tool turn messages.%d without a non-empty reasoning_content", k.Int())
			}
			if m.Get("reasoning_opaque").Exists() && !d.ReadsNative(engine.NativeCopilot) {
				t.Fatalf("invariant 5: reasoning_opaque sent off the Copilot route (messages.%d)", k.Int())
			}
			if (m.Get("extra_content").Exists() || m.Get("tool_calls.#.extra_content|0").Exists()) && !d.ReadsNative(engine.NativeGemini) {
				t.Fatalf("invariant 5: a Gemini signature sent off a Gemini route (messages.%d)", k.Int())
			}
			if strings.Contains(m.Get("reasoning_details").Raw, "native_assistant") {
				t.Fatalf("a private record reached the wire (messages.%d)", k.Int())
			}
			return true
		})
	})
}
