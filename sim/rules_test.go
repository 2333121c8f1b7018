package sim

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/providers"
)

// Chat request builders.
func chatBody(model string, msgs ...string) string {
	return `{"model":"` + model + `","messages":[` + strings.Join(msgs, ",") + `]}`
}
func user(text string) string { return `{"role":"user","content":` + strconv.Quote(text) + `}` }
func asst(extra string) string {
	return `{"role":"assistant","content":"ok"` + extra + `}`
}
func toolResult() string { return `{"role":"tool","tool_call_id":"c1","content":"sunny"}` }

const toolCalls = `,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]`

// toolCallsWith is a tool_calls list whose first call carries extra JSON.
func toolCallsWith(extra string) string {
	return `,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}` + extra + `}]`
}

func q(s string) string { return strconv.Quote(s) }

// ruleCase is one condition evaluation.
type ruleCase struct {
	reason  string
	profile *providers.Profile
	path    string
	body    string
	// fire is the expected {path}; "" means the request is answered 200.
	fire  string
	index int
}

func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		s := newSim(t, tc.profile, testSeed)
		rec := post(s, tc.path, tc.body)
		if tc.fire == "" {
			if rec.Code != 200 {
				t.Errorf("%s: status %d, want 200: %s", tc.reason, rec.Code, rec.Body)
			}
			continue
		}
		if rec.Code != 400 {
			t.Errorf("%s: status %d, want 400: %.200s", tc.reason, rec.Code, rec.Body)
			continue
		}
		body := mustJSON(t, rec)
		sum := sha256.Sum256([]byte(tc.body))
		want := map[string]string{
			"error.path":       tc.fire,
			"error.index":      strconv.Itoa(tc.index),
			"error.field":      tc.profile.Rules[0].When.Field,
			"error.request_id": "sim_" + hex.EncodeToString(sum[:])[:12],
		}
		for k, v := range want {
			if got := body.Get(k).String(); got != v {
				t.Errorf("%s: %s = %q, want %q", tc.reason, k, got, v)
			}
		}
	}
}

func cond(kind, field string) providers.Condition {
	return providers.Condition{Kind: kind, Field: field}
}

func TestChatRules(t *testing.T) {
	g, _ := newSigner("c", testSeed)
	foreign, _ := newSigner("c", "another-seed")
	otherProfile, _ := newSigner("d", testSeed)
	const chat = "/v1/chat/completions"
	present := profile("c", modeChat, []string{"reasoning"}, withRule(cond(providers.ConditionAssistantFieldPresent, "reasoning_content")))
	missing := func(blank, ws bool) *providers.Profile {
		c := cond(providers.ConditionToolTurnFieldMissing, "reasoning_content")
		c.BlankIsMissing, c.WhitespaceIsMissing = blank, ws
		return profile("c", modeChat, []string{"reasoning_content"}, withRule(c))
	}
	topLevel := profile("c", modeChat, []string{"reasoning_content"}, withRule(cond(providers.ConditionTopLevelFieldPresent, "reasoning_effort")))
	details := func(kind string) *providers.Profile {
		return profile("c", modeChat, []string{"reasoning_details"}, signing(providers.SchemeThinkingSignature, "reasoning_details"), withRule(cond(kind, "reasoning_details")))
	}
	textItem := func(text, sig string) string {
		it := `{"type":"reasoning.text","text":` + q(text)
		if sig != "" {
			it += `,"signature":` + q(sig)
		}
		return `,"reasoning_details":[` + it + `,"format":"anthropic-claude-v1","index":0}]`
	}
	encItem := func(data string) string {
		return `,"reasoning_details":[{"type":"reasoning.encrypted","data":` + q(data) + `,"index":1}]`
	}
	opaque := func(kind string) *providers.Profile {
		return profile("c", modeChat, []string{"reasoning_text", "reasoning_opaque"}, signing(providers.SchemeReasoningOpaque, "reasoning_opaque"), withRule(cond(kind, "reasoning_opaque")))
	}
	extra := func(kind string) *providers.Profile {
		return profile("c", modeChat, []string{"extra_content"}, signing(providers.SchemeThoughtSignature, "extra_content.google.thought_signature"), withRule(cond(kind, "extra_content.google.thought_signature")))
	}
	sigExtra := func(sig string) string { return `,"extra_content":{"google":{"thought_signature":` + q(sig) + `}}` }
	modelOnly := cond(providers.ConditionToolTurnFieldMissing, "reasoning_content")
	modelOnly.Models = []string{"v4"}
	except := cond(providers.ConditionToolTurnFieldMissing, "reasoning_content")
	except.ExceptModels = []string{"legacy"}
	otherType := cond(providers.ConditionTopLevelFieldPresent, "thinking.type")
	otherType.ExceptValues = []string{"enabled", "disabled"}
	otherTypeProfile := profile("c", modeChat, []string{"reasoning_content"}, withRule(otherType))
	genuine := g.thought("thought")
	urlSafe := base64.RawURLEncoding.EncodeToString(mustDecode(t, genuine))

	runRuleCases(t, []ruleCase{
		{"assistant_field_present fires on an empty value", present, chat, chatBody("m", user("a"), asst(`,"reasoning_content":""`), user("b")), "messages.1.reasoning_content", 1},
		{"assistant_field_present ignores other keys", present, chat, chatBody("m", user("a"), asst(`,"reasoning":"r"`), user("b")), "", 0},
		{"assistant_field_present ignores user messages", present, chat, chatBody("m", `{"role":"user","content":"a","reasoning_content":"x"}`), "", 0},

		{"tool turn without the key", missing(false, false), chat, chatBody("m", user("a"), asst(toolCalls), toolResult()), "messages.1.reasoning_content", 1},
		{"tool turn with null", missing(false, false), chat, chatBody("m", user("a"), asst(`,"reasoning_content":null`+toolCalls), toolResult()), "messages.1.reasoning_content", 1},
		{"\"\" is present when blank is not missing", missing(false, false), chat, chatBody("m", user("a"), asst(`,"reasoning_content":""`+toolCalls), toolResult()), "", 0},
		{"\"\" is missing with blank_is_missing", missing(true, false), chat, chatBody("m", user("a"), asst(`,"reasoning_content":""`+toolCalls), toolResult()), "messages.1.reasoning_content", 1},
		{"\" \" pads a blank_is_missing rule (DeepSeek V4)", missing(true, false), chat, chatBody("m", user("a"), asst(`,"reasoning_content":" "`+toolCalls), toolResult()), "", 0},
		{"\" \" is missing with whitespace_is_missing", missing(true, true), chat, chatBody("m", user("a"), asst(`,"reasoning_content":" "`+toolCalls), toolResult()), "messages.1.reasoning_content", 1},
		{"[] is missing with blank_is_missing", missing(true, false), chat, chatBody("m", user("a"), asst(`,"reasoning_content":[]`+toolCalls), toolResult()), "messages.1.reasoning_content", 1},
		{"a real value satisfies every variant", missing(true, true), chat, chatBody("m", user("a"), asst(`,"reasoning_content":"think"`+toolCalls), toolResult()), "", 0},
		{"turns without tool calls are not checked", missing(true, true), chat, chatBody("m", user("a"), asst(""), user("b")), "", 0},
		{"the first offending turn is named", missing(true, false), chat, chatBody("m", user("a"), asst(`,"reasoning_content":"t"`+toolCalls), toolResult(), asst(toolCalls), toolResult()), "messages.3.reasoning_content", 3},
		{"models restriction: other model", profile("c", modeChat, []string{"reasoning_content"}, withRule(modelOnly)), chat, chatBody("deepseek-chat", user("a"), asst(toolCalls), toolResult()), "", 0},
		{"models restriction: matching model", profile("c", modeChat, []string{"reasoning_content"}, withRule(modelOnly)), chat, chatBody("DeepSeek-V4-Pro", user("a"), asst(toolCalls), toolResult()), "messages.1.reasoning_content", 1},
		{"except_models restriction", profile("c", modeChat, []string{"reasoning_content"}, withRule(except)), chat, chatBody("legacy-r1", user("a"), asst(toolCalls), toolResult()), "", 0},

		{"top_level_field_present fires", topLevel, chat, `{"model":"m","reasoning_effort":"high","messages":[]}`, "reasoning_effort", 0},
		{"top_level_field_present does not fire", topLevel, chat, `{"model":"m","messages":[]}`, "", 0},
		{"except_values: a documented value passes", otherTypeProfile, chat, `{"model":"m","thinking":{"type":"enabled"},"messages":[]}`, "", 0},
		{"except_values: any other value fires", otherTypeProfile, chat, `{"model":"m","thinking":{"type":"enabled-changed"},"messages":[]}`, "thinking.type", 0},
		{"except_values: no value, no refusal", otherTypeProfile, chat, `{"model":"m","messages":[]}`, "", 0},

		{"genuine details signature", details(providers.ConditionSignatureInvalid), chat, chatBody("m", user("a"), asst(textItem("t", g.sign("t"))), user("b")), "", 0},
		{"tampered details text", details(providers.ConditionSignatureInvalid), chat, chatBody("m", user("a"), asst(textItem("t!", g.sign("t"))), user("b")), "messages.1.reasoning_details.0", 1},
		{"details signature from another seed", details(providers.ConditionSignatureInvalid), chat, chatBody("m", user("a"), asst(textItem("t", foreign.sign("t"))), user("b")), "messages.1.reasoning_details.0", 1},
		{"details signature from another profile", details(providers.ConditionSignatureInvalid), chat, chatBody("m", user("a"), asst(textItem("t", otherProfile.sign("t"))), user("b")), "messages.1.reasoning_details.0", 1},
		{"missing details signature", details(providers.ConditionSignatureMissing), chat, chatBody("m", user("a"), asst(textItem("t", "")), user("b")), "messages.1.reasoning_details.0", 1},
		{"signed details are not missing", details(providers.ConditionSignatureMissing), chat, chatBody("m", user("a"), asst(textItem("t", g.sign("t"))), user("b")), "", 0},
		{"genuine encrypted item", details(providers.ConditionSignatureInvalid), chat, chatBody("m", user("a"), asst(encItem(g.seal("m", "t"))), user("b")), "", 0},
		{"tampered encrypted item", details(providers.ConditionSignatureInvalid), chat, chatBody("m", user("a"), asst(encItem("x"+g.seal("m", "t")[1:])), user("b")), "messages.1.reasoning_details.0", 1},
		{"encrypted item sealed for another model", details(providers.ConditionSealedBlobForeign), chat, chatBody("m", user("a"), asst(encItem(g.seal("other", "t"))), user("b")), "messages.1.reasoning_details.0", 1},
		{"encrypted item sealed for this model", details(providers.ConditionSealedBlobForeign), chat, chatBody("m", user("a"), asst(encItem(g.seal("m", "t"))), user("b")), "", 0},

		{"opaque missing on the last tool turn", opaque(providers.ConditionSignatureMissing), chat, chatBody("m", user("a"), asst(`,"reasoning_text":"t"`+toolCalls), toolResult()), "messages.1.reasoning_opaque", 1},
		{"opaque only needed on the last tool turn", opaque(providers.ConditionSignatureMissing), chat, chatBody("m", user("a"), asst(toolCalls), toolResult(), asst(`,"reasoning_opaque":`+q(g.seal("m", "t"))+toolCalls), toolResult()), "", 0},
		{"tampered opaque", opaque(providers.ConditionSignatureInvalid), chat, chatBody("m", user("a"), asst(`,"reasoning_opaque":"bm90IHNlYWxlZA=="`+toolCalls), toolResult()), "messages.1.reasoning_opaque", 1},
		{"opaque from another seed", opaque(providers.ConditionSignatureInvalid), chat, chatBody("m", user("a"), asst(`,"reasoning_opaque":`+q(foreign.seal("m", "t"))+toolCalls), toolResult()), "messages.1.reasoning_opaque", 1},
		{"opaque sealed for another model", opaque(providers.ConditionSealedBlobForeign), chat, chatBody("m", user("a"), asst(`,"reasoning_opaque":`+q(g.seal("gpt", "t"))+toolCalls), toolResult()), "messages.1.reasoning_opaque", 1},

		{"current-turn tool call without thought signature", extra(providers.ConditionSignatureMissing), chat, chatBody("m", user("a"), asst(toolCalls), toolResult()), "messages.1.tool_calls.0.extra_content.google.thought_signature", 1},
		{"earlier-turn tool call is not validated", extra(providers.ConditionSignatureMissing), chat, chatBody("m", user("a"), asst(toolCalls), toolResult(), asst(""), user("b")), "", 0},
		{"signed current-turn tool call", extra(providers.ConditionSignatureMissing), chat, chatBody("m", user("a"), asst(toolCallsWith(sigExtra(genuine))), toolResult()), "", 0},
		{"tampered thought signature", extra(providers.ConditionSignatureInvalid), chat, chatBody("m", user("a"), asst(toolCallsWith(sigExtra(genuine[:20]+"AAAA"+genuine[24:]))), toolResult()), "messages.1.tool_calls.0.extra_content.google.thought_signature", 1},
		{"thought signature from another seed", extra(providers.ConditionSignatureInvalid), chat, chatBody("m", user("a"), asst(toolCallsWith(sigExtra(foreign.thought("thought")))), toolResult()), "messages.1.tool_calls.0.extra_content.google.thought_signature", 1},
		{"URL-safe re-encoding still verifies", extra(providers.ConditionSignatureInvalid), chat, chatBody("m", user("a"), asst(toolCallsWith(sigExtra(urlSafe))), toolResult()), "", 0},
		{"documented dummy signature verifies", extra(providers.ConditionSignatureInvalid), chat, chatBody("m", user("a"), asst(toolCallsWith(sigExtra("skip_thought_signature_validator"))), toolResult()), "", 0},
		{"tampered message-level signature", extra(providers.ConditionSignatureInvalid), chat, chatBody("m", user("a"), asst(sigExtra("Zm9v")), user("b")), "messages.1.extra_content.google.thought_signature", 1},
	})
}

func mustDecode(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAnthropicRules(t *testing.T) {
	g, _ := newSigner("claude", testSeed)
	foreign, _ := newSigner("claude", "another-seed")
	const path = "/v1/messages"
	body := func(thinking string, msgs ...string) string {
		return `{"model":"claude-x","max_tokens":100` + thinking + `,"messages":[` + strings.Join(msgs, ",") + `]}`
	}
	const on = `,"thinking":{"type":"enabled","budget_tokens":64}`
	const adaptive = `,"thinking":{"type":"adaptive"}`
	userMsg := `{"role":"user","content":"a"}`
	toolRes := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}`
	thinking := func(text, sig string) string {
		return `{"type":"thinking","thinking":` + q(text) + `,"signature":` + q(sig) + `}`
	}
	redacted := func(data string) string { return `{"type":"redacted_thinking","data":` + q(data) + `}` }
	toolUse := `{"type":"tool_use","id":"t1","name":"f","input":{}}`
	assistant := func(blocks ...string) string {
		return `{"role":"assistant","content":[` + strings.Join(blocks, ",") + `]}`
	}
	p := func(kind, field string) *providers.Profile { return anthropicProfile(withRule(cond(kind, field))) }
	missing := p(providers.ConditionToolTurnFieldMissing, "thinking")
	invalid := p(providers.ConditionSignatureInvalid, "thinking.signature")
	runRuleCases(t, []ruleCase{
		{"thinking on, tool turn starts with tool_use", missing, path, body(on, userMsg, assistant(toolUse), toolRes), "messages.1.content.0", 1},
		{"adaptive thinking counts as on", missing, path, body(adaptive, userMsg, assistant(toolUse), toolRes), "messages.1.content.0", 1},
		{"thinking off: no requirement", missing, path, body("", userMsg, assistant(toolUse), toolRes), "", 0},
		{"tool turn starts with thinking", missing, path, body(on, userMsg, assistant(thinking("t", g.sign("t")), toolUse), toolRes), "", 0},
		{"tool turn starts with redacted_thinking", missing, path, body(on, userMsg, assistant(redacted(g.seal("claude-x", "t")), toolUse), toolRes), "", 0},
		{"only the last tool turn is checked", missing, path, body(on, userMsg, assistant(toolUse), toolRes, assistant(thinking("t", g.sign("t")), toolUse), toolRes), "", 0},
		{"the last tool turn is named", missing, path, body(on, userMsg, assistant(thinking("t", g.sign("t")), toolUse), toolRes, assistant(`{"type":"text","text":"x"}`, toolUse), toolRes), "messages.3.content.0", 3},

		{"genuine signature", invalid, path, body(on, userMsg, assistant(thinking("t", g.sign("t")), toolUse), toolRes), "", 0},
		{"edited thinking text", invalid, path, body(on, userMsg, assistant(thinking("t ", g.sign("t")), toolUse), toolRes), "messages.1.content.0", 1},
		{"signature from another seed", invalid, path, body(on, userMsg, assistant(thinking("t", foreign.sign("t")), toolUse), toolRes), "messages.1.content.0", 1},
		{"tampered redacted data", invalid, path, body(on, userMsg, assistant(`{"type":"text","text":"x"}`, redacted("AAAA")), userMsg), "messages.1.content.1", 1},
		{"genuine redacted data", invalid, path, body(on, userMsg, assistant(redacted(g.seal("claude-x", "t")), toolUse), toolRes), "", 0},

		{"empty signature is missing", p(providers.ConditionSignatureMissing, "thinking.signature"), path, body(on, userMsg, assistant(thinking("t", ""), toolUse), toolRes), "messages.1.content.0", 1},
		{"absent signature is missing", p(providers.ConditionSignatureMissing, "thinking.signature"), path, body(on, userMsg, assistant(`{"type":"thinking","thinking":"t"}`, toolUse), toolRes), "messages.1.content.0", 1},
		{"signed block is not missing", p(providers.ConditionSignatureMissing, "thinking.signature"), path, body(on, userMsg, assistant(thinking("", g.sign(""))), userMsg), "", 0},

		{"redacted blob sealed for another model", p(providers.ConditionSealedBlobForeign, "redacted_thinking.data"), path, body(on, userMsg, assistant(redacted(g.seal("claude-y", "t")), toolUse), toolRes), "messages.1.content.0", 1},
		{"redacted blob sealed for this model", p(providers.ConditionSealedBlobForeign, "redacted_thinking.data"), path, body(on, userMsg, assistant(redacted(g.seal("claude-x", "t")), toolUse), toolRes), "", 0},
	})
}

func TestConverseRules(t *testing.T) {
	g, _ := newSigner("bedrock", testSeed)
	foreign, _ := newSigner("bedrock", "another-seed")
	body := func(thinking string, msgs ...string) string {
		return `{"messages":[` + strings.Join(msgs, ",") + `]` + thinking + `}`
	}
	const on = `,"additionalModelRequestFields":{"thinking":{"type":"enabled","budget_tokens":64}}`
	userMsg := `{"role":"user","content":[{"text":"a"}]}`
	toolRes := `{"role":"user","content":[{"toolResult":{"toolUseId":"t1","content":[{"text":"ok"}]}}]}`
	text := func(t, sig string) string {
		rt := `{"text":` + q(t)
		if sig != "" {
			rt += `,"signature":` + q(sig)
		}
		return `{"reasoningContent":{"reasoningText":` + rt + `}}}`
	}
	blob := func(b string) string { return `{"reasoningContent":{"redactedContent":` + q(b) + `}}` }
	toolUse := `{"toolUse":{"toolUseId":"t1","name":"f","input":{}}}`
	assistant := func(blocks ...string) string {
		return `{"role":"assistant","content":[` + strings.Join(blocks, ",") + `]}`
	}
	p := func(kind, field string) *providers.Profile { return converseProfile(withRule(cond(kind, field))) }
	sigField := "reasoningContent.reasoningText.signature"
	runRuleCases(t, []ruleCase{
		{"thinking on, tool turn without reasoning", p(providers.ConditionToolTurnFieldMissing, "reasoningContent"), conversePath, body(on, userMsg, assistant(toolUse), toolRes), "messages.1.content.0", 1},
		{"thinking off, tool turn without reasoning", p(providers.ConditionToolTurnFieldMissing, "reasoningContent"), conversePath, body("", userMsg, assistant(toolUse), toolRes), "", 0},
		{"tool turn led by reasoning", p(providers.ConditionToolTurnFieldMissing, "reasoningContent"), conversePath, body(on, userMsg, assistant(text("t", g.sign("t")), toolUse), toolRes), "", 0},

		{"signature missing", p(providers.ConditionSignatureMissing, sigField), conversePath, body(on, userMsg, assistant(text("t", ""), toolUse), toolRes), "messages.1.content.0", 1},
		{"signature present", p(providers.ConditionSignatureMissing, sigField), conversePath, body(on, userMsg, assistant(text("t", g.sign("t")), toolUse), toolRes), "", 0},
		{"signature tampered", p(providers.ConditionSignatureInvalid, sigField), conversePath, body(on, userMsg, assistant(text("t", g.sign("u")), toolUse), toolRes), "messages.1.content.0", 1},
		{"signature from another seed", p(providers.ConditionSignatureInvalid, sigField), conversePath, body(on, userMsg, assistant(text("t", foreign.sign("t")), toolUse), toolRes), "messages.1.content.0", 1},
		{"redacted blob sealed for the URL's model", p(providers.ConditionSealedBlobForeign, "reasoningContent.redactedContent"), conversePath, body(on, userMsg, assistant(blob(g.seal(converseModel, "t")), toolUse), toolRes), "", 0},
		{"redacted blob sealed for another model", p(providers.ConditionSealedBlobForeign, "reasoningContent.redactedContent"), conversePath, body(on, userMsg, assistant(blob(g.seal("us.anthropic.claude-y-v1:0", "t")), toolUse), toolRes), "messages.1.content.0", 1},
		{"foreign blob on the stream path too", p(providers.ConditionSealedBlobForeign, "reasoningContent.redactedContent"), strings.Replace(conversePath, "converse", "converse-stream", 1), body(on, userMsg, assistant(blob(g.seal("other", "t")), toolUse), toolRes), "messages.1.content.0", 1},
		{"tampered redacted blob", p(providers.ConditionSignatureInvalid, sigField), conversePath, body(on, userMsg, assistant(blob(foreign.seal(converseModel, "t")), toolUse), toolRes), "messages.1.content.0", 1},
	})
}

func TestGeminiRules(t *testing.T) {
	g, _ := newSigner("gemini", testSeed)
	foreign, _ := newSigner("gemini", "another-seed")
	body := func(contents ...string) string { return `{"contents":[` + strings.Join(contents, ",") + `]}` }
	userText := `{"role":"user","parts":[{"text":"a"}]}`
	fnResp := `{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"ok":true}}}]}`
	call := func(sig string) string {
		p := `{"functionCall":{"name":"f","args":{}}`
		if sig != "" {
			p += `,"thoughtSignature":` + q(sig)
		}
		return p + `}`
	}
	model := func(parts ...string) string { return `{"role":"model","parts":[` + strings.Join(parts, ",") + `]}` }
	p := func(kind string) *providers.Profile { return geminiProfile(withRule(cond(kind, "thoughtSignature"))) }
	miss, bad := p(providers.ConditionSignatureMissing), p(providers.ConditionSignatureInvalid)
	sig := g.thought("t")
	runRuleCases(t, []ruleCase{
		{"current-turn call without signature", miss, geminiPath, body(userText, model(call("")), fnResp), "contents.1.parts.0", 1},
		{"every step of the current turn is checked", miss, geminiPath, body(userText, model(call(sig)), fnResp, model(`{"text":"thinking aloud"}`, call("")), fnResp), "contents.3.parts.1", 3},
		{"a functionResponse turn does not start a new turn", miss, geminiPath, body(userText, model(call("")), fnResp, model(call(sig)), fnResp), "contents.1.parts.0", 1},
		{"earlier turns are not validated", miss, geminiPath, body(userText, model(call("")), fnResp, model(`{"text":"done"}`), userText), "", 0},
		{"only the first parallel call needs the signature", miss, geminiPath, body(userText, model(call(sig), call("")), fnResp), "", 0},
		{"missing on the stream path", miss, geminiStream, body(userText, model(call("")), fnResp), "contents.1.parts.0", 1},
		{"genuine signature", bad, geminiPath, body(userText, model(call(sig)), fnResp), "", 0},
		{"signature from another seed", bad, geminiPath, body(userText, model(call(foreign.thought("t"))), fnResp), "contents.1.parts.0", 1},
		{"garbage signature on a text part", bad, geminiPath, body(userText, model(`{"text":"x","thoughtSignature":"!!"}`), userText), "contents.1.parts.0", 1},
		{"documented dummy signature", bad, geminiPath, body(userText, model(call(base64.StdEncoding.EncodeToString([]byte("context_engineering_is_the_way_to_go")))), fnResp), "", 0},
	})
}

func TestRuleSSEFraming(t *testing.T) {
	c := cond(providers.ConditionToolTurnFieldMissing, "reasoning_content")
	c.BlankIsMissing = true
	sse := profile("mimo-like", modeChat, []string{"reasoning_content"}, withRule(c, func(r *providers.Rule) { r.StreamFraming = providers.StreamSSE }))
	plain := profile("plain", modeChat, []string{"reasoning_content"}, withRule(c, func(r *providers.Rule) { r.ContentType = "application/octet-stream" }))
	req := chatBody("m", user("a"), asst(toolCalls), toolResult())
	tests := []struct {
		reason   string
		profile  *providers.Profile
		body     string
		wantCT   string
		wantSSE  bool
		wantPath string
	}{
		{"streaming request to an SSE-framed rule", sse, streamed(req), "text/event-stream", true, "messages.1.reasoning_content"},
		{"whole request to an SSE-framed rule", sse, req, "application/json", false, "messages.1.reasoning_content"},
		{"streaming request to a plain rule keeps its content type", plain, streamed(req), "application/octet-stream", false, "messages.1.reasoning_content"},
	}
	for _, tt := range tests {
		rec := post(newSim(t, tt.profile, testSeed), "/v1/chat/completions", tt.body)
		if rec.Code != 400 || rec.Header().Get("Content-Type") != tt.wantCT {
			t.Errorf("%s: status %d content type %q, want 400 %q", tt.reason, rec.Code, rec.Header().Get("Content-Type"), tt.wantCT)
		}
		raw := rec.Body.String()
		if tt.wantSSE {
			if !strings.HasPrefix(raw, "data:{") || !strings.HasSuffix(raw, "}\n\n") {
				t.Errorf("%s: body %q is not one SSE data line", tt.reason, raw)
			}
			raw = strings.TrimSuffix(strings.TrimPrefix(raw, "data:"), "\n\n")
		}
		if got := gjson.Get(raw, "error.path").String(); got != tt.wantPath {
			t.Errorf("%s: error.path %q, want %q (body %q)", tt.reason, got, tt.wantPath, raw)
		}
	}
}
