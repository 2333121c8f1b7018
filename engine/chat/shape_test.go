package chat_test

import (
	"encoding/json"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/chat"
	"github.com/tidwall/gjson"
)

func shape(t *testing.T, table *engine.Table, r engine.Route, rejected engine.CarrierSet, msgs []engine.Message) string {
	t.Helper()
	d := table.Decide(r, rejected)
	body, err := chat.Dialect{}.Shape(&engine.Session{Messages: msgs}, d, engine.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if !gjson.ValidBytes(body) {
		t.Fatalf("invalid JSON: %s", body)
	}
	return string(body)
}

// TestRouteMatrix is the verified example matrix of the research notes
// (hermes-semantics §1.8, scenario inventory A1–A14).
func TestRouteMatrix(t *testing.T) {
	tests := []struct {
		provider, baseURL, model string
		rc, r, rd                bool
		bareRC                   string // "" = absent
		geminiExtra              bool
		reason                   string
	}{
		{"mistral", "https://api.mistral.ai/v1", "deepseek-r1", false, false, false, "", false, "A1 strict wins over the must-echo model family"},
		{"custom", "https://api.groq.com/openai/v1", "m", false, false, false, "", false, "A2 Groq host is strict"},
		{"custom", "https://api.cerebras.ai/v1", "m", false, false, false, "", false, "A3 Cerebras host is strict"},
		{"fireworks", "https://api.fireworks.ai/inference/v1", "m", true, false, false, "", false, "A4 Fireworks RC only"},
		{"nous", "https://inference-api.nousresearch.com/v1", "z-ai/glm-5.3", true, true, true, "", false, "A5 Nous Portal all three"},
		{"kilocode", "https://api.kilo.ai/api/gateway", "m", true, true, true, "", false, "A6 Kilo all three"},
		{"novita", "https://api.novita.ai/openai/v1", "m", true, false, true, "", false, "A7 Novita RC+RD"},
		{"ollama-cloud", "https://ollama.com/v1", "m", true, true, false, "", false, "A8 Ollama Cloud RC+R"},
		{"custom", "http://127.0.0.1:8080/v1", "m", true, true, false, "", false, "A9 local RC+R"},
		{"zai", "https://api.z.ai/api/paas/v4", "glm-5.3", true, false, false, "", false, "A10 GLM default RC"},
		{"openai-api", "https://api.openai.com/v1", "gpt-5", true, false, false, "", false, "A11 OpenAI default RC"},
		{"deepseek", "https://api.deepseek.com/v1", "deepseek-v4-flash", true, false, false, " ", false, "A13 must-echo pads the bare tool turn with one space"},
		{"gemini", "https://generativelanguage.googleapis.com/v1beta/openai", "my-alias", true, false, false, "", true, "A14 the Gemini route keeps the tool call's signature"},
	}
	table := enginetest.Table(t)
	for _, tt := range tests {
		msgs := history(storedTurn(), bareTurn())
		before := mustJSON(t, msgs)
		body := shape(t, table, engine.Route{Provider: tt.provider, BaseURL: tt.baseURL, Model: tt.model}, 0, msgs)
		turn, bare := gjson.Get(body, "messages.1"), gjson.Get(body, "messages.3")
		check := func(what string, got, want bool) {
			if got != want {
				t.Errorf("%s: %s present = %v, want %v: %s", tt.provider, what, got, want, tt.reason)
			}
		}
		check("reasoning_content", turn.Get("reasoning_content").Exists(), tt.rc)
		check("reasoning", turn.Get("reasoning").Exists(), tt.r)
		check("reasoning_details", turn.Get("reasoning_details").Exists(), tt.rd)
		check("tool call extra_content", turn.Get("tool_calls.0.extra_content").Exists(), tt.geminiExtra)
		if tt.rc && turn.Get("reasoning_content").String() != "thought" {
			t.Errorf("%s: RC = %q, want the stored text: %s", tt.provider, turn.Get("reasoning_content").String(), tt.reason)
		}
		if tt.r && turn.Get("reasoning").String() != "thought" {
			t.Errorf("%s: R = %q: %s", tt.provider, turn.Get("reasoning").String(), tt.reason)
		}
		if got := bare.Get("reasoning_content"); got.Exists() != (tt.bareRC != "") || got.String() != tt.bareRC {
			t.Errorf("%s: bare turn RC = %s, want %q: %s (A12)", tt.provider, got.Raw, tt.bareRC, tt.reason)
		}
		for _, k := range []string{"reasoning", "reasoning_details", "extra_content"} {
			if bare.Get(k).Exists() {
				t.Errorf("%s: bare turn carries %s: no placeholder outside RC (A12)", tt.provider, k)
			}
		}
		if after := mustJSON(t, msgs); after != before {
			t.Errorf("%s: shaping mutated stored history (A12)", tt.provider)
		}
	}
}

func TestShapeCarrierRules(t *testing.T) {
	table := enginetest.Table(t)
	deepseek := engine.Route{Provider: "deepseek", BaseURL: "https://api.deepseek.com", Model: "deepseek-v4"}
	gateway := engine.Route{Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "m"}
	openai := engine.Route{Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-5"}
	tests := []struct {
		route  engine.Route
		turn   engine.Message
		path   string
		want   string // raw JSON, or "" for absent
		reason string
	}{
		{deepseek, engine.Message{Role: "assistant", Content: raw(`"hi"`), ReasoningContent: engine.Str("")}, "reasoning_content", `" "`, "a stored legacy \"\" is sent as \" \" on a must-echo route"},
		{deepseek, engine.Message{Role: "assistant", Content: raw(`"hi"`), ReasoningContent: engine.Str("   ")}, "reasoning_content", `" "`, "whitespace is not reasoning: the pad is sent"},
		{openai, engine.Message{Role: "assistant", Content: raw(`"hi"`), ReasoningContent: engine.Str(" ")}, "reasoning_content", ``, "a pad written for a previous must-echo route is not replayed elsewhere"},
		{deepseek, engine.Message{Role: "assistant", Content: raw(`"hi"`), Reasoning: engine.Str("foreign")}, "reasoning_content", `"foreign"`, "R is promoted to RC where RC is read"},
		{gateway, engine.Message{Role: "assistant", Content: raw(`"hi"`), ReasoningContent: engine.Str("rc"), Reasoning: engine.Str("r")}, "reasoning", `"rc"`, "the wire R carries the RC text when both exist"},
		{gateway, engine.Message{Role: "assistant", Content: raw(`"hi"`), ReasoningDetails: []json.RawMessage{raw(`{"type":"hermes.native_assistant","reasoning_opaque":"O"}`)}}, "reasoning_details", ``, "an RD holding only a private record is absent"},
		{gateway, engine.Message{Role: "assistant", Content: raw(`"hi"`), ReasoningDetails: []json.RawMessage{raw(`{"type":"other.native_assistant","x":1}`), raw(`{"type":"reasoning.encrypted","data":"QUJD"}`)}}, "reasoning_details", `[{"type":"reasoning.encrypted","data":"QUJD"}]`, "D35 a foreign provider's record never reaches the wire; encrypted items pass verbatim"},
		{gateway, engine.Message{Role: "assistant", Content: raw(`"hi"`)}, "reasoning_content", ``, "a reasoning-less turn gets no carrier outside the must-echo tier"},
		{gateway, engine.Message{Role: "user", Content: raw(`"q"`), Extra: map[string]json.RawMessage{"_db_id": raw(`7`), "metadata": raw(`{"a":1}`)}}, "_db_id", ``, "bookkeeping keys never reach the wire"},
		{gateway, engine.Message{Role: "user", Content: raw(`"q"`), Extra: map[string]json.RawMessage{"metadata": raw(`{"a":1}`)}}, "metadata", `{"a":1}`, "other keys pass through"},
		{gateway, engine.Message{Role: "assistant", Content: raw(`"hi"`), Timestamp: "2026-01-01", Native: &engine.NativeTurn{Dialect: engine.ModeAnthropic, Blocks: []json.RawMessage{raw(`{"type":"text","text":"hi"}`)}}}, "native", ``, "storage-only native blocks never reach a chat wire"},
		{gateway, engine.Message{Role: "assistant", Content: raw(`"hi"`), Timestamp: "2026-01-01"}, "timestamp", ``, "timestamps are storage only"},
		{gateway, engine.Message{Role: "assistant", Content: raw(`null`), ToolCalls: []engine.ToolCall{{ID: "c", Function: engine.FunctionCall{Name: "f", Arguments: "{}"}, CallID: "x", ResponseItemID: "y"}}}, "tool_calls.0.call_id", ``, "Responses bookkeeping on tool calls never reaches the wire"},
	}
	for _, tt := range tests {
		body := shape(t, table, tt.route, 0, []engine.Message{{Role: "user", Content: raw(`"q"`)}, tt.turn})
		got := gjson.Get(body, "messages.1."+tt.path)
		if (tt.want == "") == got.Exists() || (tt.want != "" && got.Raw != tt.want) {
			t.Errorf("%s: %s = %s, want %s: %s", tt.route.Provider, tt.path, got.Raw, tt.want, tt.reason)
		}
	}
}

// TestPrivateRecordReachesOnlyItsRoute covers research inventory C31–C34
// and A21 on chat routes.
func TestPrivateRecordReachesOnlyItsRoute(t *testing.T) {
	turn := engine.Message{
		Role: "assistant", Content: raw(`null`), Reasoning: engine.Str("plan it"),
		ToolCalls: []engine.ToolCall{{ID: "c1", Type: "function", Function: engine.FunctionCall{Name: "f", Arguments: "{}", ThoughtSignature: "FSIG"}}},
	}
	turn.SetRecord(engine.NativeValues{ReasoningOpaque: "OPAQUE", ReasoningText: "plan it", ThoughtSignature: "SIG_TEXT"})
	table := enginetest.Table(t)
	tests := []struct {
		route   engine.Route
		present []string
		absent  []string
		reason  string
	}{
		{engine.Route{Provider: "copilot", BaseURL: "https://api.githubcopilot.com", Model: "claude-sonnet-4.5"},
			[]string{"reasoning_opaque", "reasoning_text", "tool_calls.0.function.thought_signature"}, []string{"reasoning_details", "extra_content"}, "C33 the Copilot route gets its opaque, text and function signature, no RD"},
		{engine.Route{Provider: "fireworks", BaseURL: "https://api.fireworks.ai/inference/v1", Model: "claude"},
			nil, []string{"reasoning_opaque", "reasoning_text", "extra_content", "tool_calls.0.function.thought_signature", "reasoning_details"}, "C34 Fireworks sees none of the native fields"},
		{engine.Route{Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "anthropic/claude-sonnet-4.5"},
			[]string{"reasoning_content", "reasoning"}, []string{"reasoning_opaque", "reasoning_text", "extra_content", "tool_calls.0.function.thought_signature", "reasoning_details"}, "C34 OpenRouter reads RD but never the record"},
		{engine.Route{Provider: "gemini", BaseURL: "https://generativelanguage.googleapis.com/v1beta/openai", Model: "gemini-3-pro"},
			[]string{"extra_content.google.thought_signature"}, []string{"reasoning_opaque", "reasoning_details", "tool_calls.0.function.thought_signature"}, "A21 the Gemini-compatible route lifts the text-turn signature from the record, no RD"},
	}
	for _, tt := range tests {
		before := mustJSON(t, turn)
		body := shape(t, table, tt.route, 0, []engine.Message{{Role: "user", Content: raw(`"q"`)}, turn})
		m := gjson.Get(body, "messages.1")
		for _, p := range tt.present {
			if !m.Get(p).Exists() {
				t.Errorf("%s: %s missing: %s", tt.route.Provider, p, tt.reason)
			}
		}
		for _, p := range tt.absent {
			if m.Get(p).Exists() {
				t.Errorf("%s: %s present: %s", tt.route.Provider, p, tt.reason)
			}
		}
		if mustJSON(t, turn) != before {
			t.Errorf("%s: stored turn changed", tt.route.Provider)
		}
	}
	copilot := shape(t, table, engine.Route{Provider: "copilot", BaseURL: "https://api.githubcopilot.com", Model: "c"}, 0, []engine.Message{turn})
	if got := gjson.Get(copilot, "messages.0.reasoning_opaque").String(); got != "OPAQUE" {
		t.Errorf("opaque = %q, want it byte for byte", got)
	}
	noOpaque := turn.Clone()
	noOpaque.SetRecord(engine.NativeValues{ReasoningText: "plan it"})
	body := shape(t, table, engine.Route{Provider: "copilot", BaseURL: "https://api.githubcopilot.com", Model: "c"}, 0, []engine.Message{noOpaque})
	if gjson.Get(body, "messages.0.reasoning_text").Exists() {
		t.Error("reasoning_text is sent only next to a reasoning_opaque")
	}
}

func TestFlagsOnTheWire(t *testing.T) {
	table := enginetest.Table(t)
	body := shape(t, table, engine.Route{Provider: "zai", BaseURL: "https://api.z.ai/api/paas/v4", Model: "glm-5.3"}, 0, history(storedTurn()))
	if got := gjson.Get(body, "thinking").Raw; got != `{"type":"enabled","clear_thinking":false}` {
		t.Errorf("GLM thinking = %s", got)
	}
	body = shape(t, table, engine.Route{Provider: "dashscope", BaseURL: "https://dashscope.aliyuncs.com/compatible-mode/v1", Model: "qwen3.6-plus"}, 0, history(storedTurn()))
	if got := gjson.Get(body, "preserve_thinking").Raw; got != `true` {
		t.Errorf("DashScope preserve_thinking = %s", got)
	}
	body = shape(t, table, engine.Route{Provider: "kimi-coding", BaseURL: "https://api.kimi.com/coding/v1", Model: "kimi-k2.6"}, 0, history(storedTurn()))
	if got := gjson.Get(body, "thinking").Raw; got != `{"type":"enabled","keep":"all"}` {
		t.Errorf("Kimi thinking = %s", got)
	}
	body = shape(t, table, engine.Route{Provider: "openai", BaseURL: "https://api.openai.com/v1", Model: "gpt-5"}, 0, history(storedTurn()))
	if gjson.Get(body, "thinking").Exists() || gjson.Get(body, "preserve_thinking").Exists() {
		t.Error("no vendor flag on the default route")
	}
}

// TestReshapeInFlight covers §3.2 and research inventory A17 and B28–B29.
func TestReshapeInFlight(t *testing.T) {
	table := enginetest.Table(t)
	nous := engine.Route{Provider: "nous", BaseURL: "https://inference-api.nousresearch.com/v1", Model: "z-ai/glm-5.3-flash:US"}
	msgs := history(storedTurn(), bareTurn())
	sent, _ := chat.Dialect{}.Shape(&engine.Session{Messages: msgs}, table.Decide(nous, 0), engine.Request{})
	tests := []struct {
		to     engine.Decision
		check  func(body string) bool
		reason string
	}{
		{table.Decide(nous, engine.NewCarrierSet(engine.Reasoning, engine.ReasoningDetails)), func(b string) bool {
			m := gjson.Get(b, "messages.1")
			return m.Get("reasoning_content").String() == "thought" && !m.Get("reasoning").Exists() && !m.Get("reasoning_details").Exists()
		}, "A17 the retry keeps RC and drops R and RD"},
		{table.Decide(engine.Route{Provider: "mistral", BaseURL: "https://api.mistral.ai/v1", Model: "m"}, 0), func(b string) bool {
			return !gjson.Get(b, "messages.1.reasoning_content").Exists() && !gjson.Get(b, "messages.1.reasoning").Exists() && !gjson.Get(b, "messages.1.reasoning_details").Exists()
		}, "B29 falling back to a strict route strips every key"},
		{table.Decide(engine.Route{Provider: "deepseek", BaseURL: "https://api.deepseek.com", Model: "deepseek-v4"}, 0), func(b string) bool {
			return gjson.Get(b, "messages.3.reasoning_content").String() == " " && gjson.Get(b, "messages.1.reasoning_content").String() == "thought"
		}, "B28 falling back to a must-echo route pads only the bare turn"},
	}
	for _, tt := range tests {
		once, err := chat.Dialect{}.Reshape(sent, nil, tt.to, engine.Request{})
		if err != nil {
			t.Fatal(err)
		}
		if !tt.check(string(once)) {
			t.Errorf("%s: got %s", tt.reason, once)
		}
		twice, _ := chat.Dialect{}.Reshape(once, nil, tt.to, engine.Request{})
		if string(twice) != string(once) {
			t.Errorf("%s: reconciling twice changed the body", tt.reason)
		}
		fresh, _ := chat.Dialect{}.Shape(&engine.Session{Messages: msgs}, tt.to, engine.Request{})
		if tt.to.Route.Provider != "deepseek" && string(fresh) != string(once) {
			t.Errorf("%s: in-flight reshape differs from a fresh shape:\n%s\n%s", tt.reason, once, fresh)
		}
	}
}
