package sim

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/tidwall/sjson"

	"github.com/replaycheck/replaycheck/providers"
)

// appendRaw appends raw JSON values to the array at path.
func appendRaw(t *testing.T, body, path string, values ...string) string {
	t.Helper()
	for _, v := range values {
		var err error
		if body, err = sjson.SetRaw(body, path+".-1", v); err != nil {
			t.Fatal(err)
		}
	}
	return body
}

// TestRoundTrip replays each dialect's own tool-call answer, the way a
// careful client does, and checks that the provider accepts it, that the
// model saw the first turn's reasoning (its memo is in the final answer),
// and that a tampered copy is refused.
func TestRoundTrip(t *testing.T) {
	memo := "memo:" + memoOf(userQuestion)
	n := 0
	sig := func(kind, field string) func(p *providers.Profile) {
		n++
		return withRule(cond(kind, field), rename(strconv.Itoa(n)))
	}
	tests := []struct {
		reason   string
		profile  *providers.Profile
		path     string
		first    string
		replay   func(t *testing.T, first string, answer gjson.Result) string
		tamper   func(second string) string
		answerAt string
	}{
		{
			reason: "chat with signed and encrypted reasoning_details",
			profile: profile("gw", modeChat, []string{"reasoning", "reasoning_details"}, reads("reasoning_details"), format("anthropic-claude-v1"),
				signing(providers.SchemeEncryptedDetails, "reasoning_details"), sig(providers.ConditionSignatureInvalid, "reasoning_details")),
			path:  "/v1/chat/completions",
			first: chatToolRequest,
			replay: func(t *testing.T, first string, a gjson.Result) string {
				return appendRaw(t, first, "messages", a.Get("choices.0.message").Raw, toolResult())
			},
			tamper:   func(s string) string { return strings.Replace(s, `"text":"Reasoning on:`, `"text":"Reasoning  on:`, 1) },
			answerAt: "choices.0.message.content",
		},
		{
			reason: "chat Copilot opaque state",
			profile: profile("copilot", modeChat, []string{"reasoning_text", "reasoning_opaque"}, reads("reasoning_opaque"),
				signing(providers.SchemeReasoningOpaque, "reasoning_opaque"), sig(providers.ConditionSignatureInvalid, "reasoning_opaque"), sig(providers.ConditionSignatureMissing, "reasoning_opaque")),
			path:  "/v1/chat/completions",
			first: chatToolRequest,
			replay: func(t *testing.T, first string, a gjson.Result) string {
				return appendRaw(t, first, "messages", a.Get("choices.0.message").Raw, toolResult())
			},
			tamper:   func(s string) string { r, _ := sjson.Delete(s, "messages.1.reasoning_opaque"); return r },
			answerAt: "choices.0.message.content",
		},
		{
			reason:  "anthropic signed thinking",
			profile: anthropicProfile(sig(providers.ConditionSignatureInvalid, "thinking.signature"), sig(providers.ConditionToolTurnFieldMissing, "thinking")),
			path:    "/v1/messages",
			first:   anthropicTool,
			replay: func(t *testing.T, first string, a gjson.Result) string {
				return appendRaw(t, first, "messages", `{"role":"assistant","content":`+a.Get("content").Raw+`}`,
					`{"role":"user","content":[{"type":"tool_result","tool_use_id":`+q(a.Get("content.1.id").String())+`,"content":"sunny"}]}`)
			},
			tamper:   func(s string) string { r, _ := sjson.Delete(s, "messages.1.content.0"); return r },
			answerAt: "content.1.text",
		},
		{
			reason:  "bedrock converse signed reasoningText",
			profile: converseProfile(sig(providers.ConditionSignatureInvalid, "reasoningContent.reasoningText.signature"), sig(providers.ConditionToolTurnFieldMissing, "reasoningContent")),
			path:    conversePath,
			first:   converseTool,
			replay: func(t *testing.T, first string, a gjson.Result) string {
				return appendRaw(t, first, "messages", a.Get("output.message").Raw,
					`{"role":"user","content":[{"toolResult":{"toolUseId":`+q(a.Get("output.message.content.1.toolUse.toolUseId").String())+`,"content":[{"text":"sunny"}]}}]}`)
			},
			tamper: func(s string) string {
				r, _ := sjson.Set(s, "messages.1.content.0.reasoningContent.reasoningText.text", "edited")
				return r
			},
			answerAt: "output.message.content.1.text",
		},
		{
			reason:  "gemini thought signature on the function call",
			profile: geminiProfile(sig(providers.ConditionSignatureMissing, "thoughtSignature")),
			path:    geminiPath,
			first:   geminiTool,
			replay: func(t *testing.T, first string, a gjson.Result) string {
				return appendRaw(t, first, "contents", a.Get("candidates.0.content").Raw,
					`{"role":"user","parts":[{"functionResponse":{"name":"get_weather","response":{"sky":"sunny"}}}]}`)
			},
			tamper:   func(s string) string { r, _ := sjson.Delete(s, "contents.1.parts.1.thoughtSignature"); return r },
			answerAt: "candidates.0.content.parts.1.text",
		},
	}
	for _, tt := range tests {
		s := newSim(t, tt.profile, testSeed)
		first := post(s, tt.path, tt.first)
		if first.Code != 200 {
			t.Fatalf("%s: first turn: %d %s", tt.reason, first.Code, first.Body)
		}
		second := tt.replay(t, tt.first, mustJSON(t, first))
		rec := post(s, tt.path, second)
		if rec.Code != 200 {
			t.Errorf("%s: replaying the provider's own answer: %d %.300s", tt.reason, rec.Code, rec.Body)
			continue
		}
		if got := mustJSON(t, rec).Get(tt.answerAt).String(); !strings.Contains(got, memo) {
			t.Errorf("%s: final answer %q does not list %s", tt.reason, got, memo)
		}
		if tampered := tt.tamper(second); tampered == second {
			t.Errorf("%s: tamper changed nothing", tt.reason)
		} else if rec := post(s, tt.path, tampered); rec.Code != 400 {
			t.Errorf("%s: tampered replay answered %d, want 400", tt.reason, rec.Code)
		}
	}
}
