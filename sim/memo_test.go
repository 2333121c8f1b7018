package sim

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/providers"
)

func keepFlag(p *providers.Profile) {
	p.Flags = append(p.Flags, providers.Flag{Path: "thinking.keep", Value: "all", Models: []string{"kimi-k2.6"}, Effect: providers.EffectKeepsPriorReasoning, Source: "test fixture"})
}

func TestMemoVisibility(t *testing.T) {
	g, _ := newSigner("m", testSeed)
	rc := profile("m", modeChat, []string{"reasoning_content"})
	r := profile("m", modeChat, []string{"reasoning_content", "reasoning"}, reads("reasoning"))
	both := profile("m", modeChat, []string{"reasoning_content", "reasoning"})
	kimi := profile("m", modeChat, []string{"reasoning_content"}, keepFlag)
	glm := profile("m", modeChat, []string{"reasoning_content"}, func(p *providers.Profile) {
		p.Flags = []providers.Flag{{Path: "thinking.clear_thinking", Value: false, Effect: providers.EffectKeepsPriorReasoning, Source: "test fixture"}}
	})
	opaque := profile("m", modeChat, []string{"reasoning_text", "reasoning_opaque"}, reads("reasoning_opaque"), signing(providers.SchemeReasoningOpaque, "reasoning_opaque"))
	const (
		m1 = "[memo:11111111]"
		m2 = "[memo:22222222]"
	)
	prior := asst(`,"reasoning_content":"first ` + m1 + ` again ` + m1 + `","reasoning":"` + m2 + `"`)
	history := func(model, top string) string {
		return `{"model":"` + model + `"` + top + `,"messages":[` + user("a") + `,` + prior + `,` + user("b") + `]}`
	}
	loop := func(model string) string {
		return `{"model":"` + model + `","messages":[` + user("a") + `,` + asst(`,"reasoning_content":"`+m2+`"`+toolCalls) + `,` + toolResult() + `]}`
	}
	tests := []struct {
		reason  string
		profile *providers.Profile
		path    string
		body    string
		want    string
	}{
		{"reads reasoning_content only", rc, "/c", history("m", ""), "Answer. Earlier conclusions in context: memo:11111111."},
		{"reads reasoning only", r, "/c", history("m", ""), "Answer. Earlier conclusions in context: memo:22222222."},
		{"reads both, sorted and unique", both, "/c", history("m", ""), "Answer. Earlier conclusions in context: memo:11111111, memo:22222222."},
		{"nothing replayed", both, "/c", chatBody("m", user("a")), "Answer. No earlier reasoning in context."},
		{"keep flag applies and is absent: prior turns unseen", kimi, "/c", history("kimi-k2.6", ""), "Answer. No earlier reasoning in context."},
		{"keep flag applies and is set", kimi, "/c", history("kimi-k2.6", `,"thinking":{"type":"enabled","keep":"all"}`), "Answer. Earlier conclusions in context: memo:11111111."},
		{"keep flag with another value", kimi, "/c", history("kimi-k2.6", `,"thinking":{"type":"enabled","keep":"none"}`), "Answer. No earlier reasoning in context."},
		{"keep flag does not apply to the model", kimi, "/c", history("kimi-k2.5", ""), "Answer. Earlier conclusions in context: memo:11111111."},
		{"current tool loop is seen without the flag", kimi, "/c", loop("kimi-k2.6"), "Answer. Earlier conclusions in context: memo:22222222."},
		{"boolean flag false is set", glm, "/c", history("glm", `,"thinking":{"type":"enabled","clear_thinking":false}`), "Answer. Earlier conclusions in context: memo:11111111."},
		{"boolean flag true is not the value", glm, "/c", history("glm", `,"thinking":{"type":"enabled","clear_thinking":true}`), "Answer. No earlier reasoning in context."},
		{"opaque blob carries its memo", opaque, "/c", chatBody("m", user("a"), asst(`,"reasoning_opaque":`+q(g.seal("m", "x "+m2))), user("b")), "Answer. Earlier conclusions in context: memo:22222222."},
		{"forged opaque blob carries nothing", opaque, "/c", chatBody("m", user("a"), asst(`,"reasoning_opaque":"eA==","reasoning_text":"`+m1+`"`), user("b")), "Answer. No earlier reasoning in context."},
	}
	for _, tt := range tests {
		body := mustJSON(t, post(newSim(t, tt.profile, testSeed), tt.path, tt.body))
		if got := body.Get("choices.0.message.content").String(); got != tt.want {
			t.Errorf("%s: answer %q, want %q", tt.reason, got, tt.want)
		}
	}
}

func TestMemoNativeDialects(t *testing.T) {
	g, _ := newSigner("claude", testSeed)
	gb, _ := newSigner("bedrock", testSeed)
	gg, _ := newSigner("gemini", testSeed)
	const m1, m2 = "[memo:aaaaaaaa]", "[memo:bbbbbbbb]"
	tests := []struct {
		reason  string
		profile *providers.Profile
		path    string
		body    string
		answer  string // gjson path of the answer text
		want    string
	}{
		{"anthropic thinking and redacted blocks", anthropicProfile(), "/v1/messages",
			`{"model":"claude-x","messages":[{"role":"user","content":"a"},{"role":"assistant","content":[{"type":"thinking","thinking":"` + m1 + `","signature":` + q(g.sign(m1)) + `},{"type":"redacted_thinking","data":` + q(g.seal("claude-x", m2)) + `},{"type":"text","text":"x"}]},{"role":"user","content":"b"}]}`,
			"content.1.text", "Answer. Earlier conclusions in context: memo:aaaaaaaa, memo:bbbbbbbb."},
		{"anthropic profile that does not read redacted_thinking", anthropicProfile(reads("thinking")), "/v1/messages",
			`{"model":"claude-x","messages":[{"role":"user","content":"a"},{"role":"assistant","content":[{"type":"redacted_thinking","data":` + q(g.seal("claude-x", m2)) + `},{"type":"text","text":"x"}]},{"role":"user","content":"b"}]}`,
			"content.1.text", "Answer. No earlier reasoning in context."},
		{"converse reasoningText and redactedContent", converseProfile(), conversePath,
			`{"messages":[{"role":"user","content":[{"text":"a"}]},{"role":"assistant","content":[{"reasoningContent":{"reasoningText":{"text":"` + m1 + `","signature":` + q(gb.sign(m1)) + `}}},{"reasoningContent":{"redactedContent":` + q(gb.seal(converseModel, m2)) + `}},{"text":"x"}]},{"role":"user","content":[{"text":"b"}]}]}`,
			"output.message.content.1.text", "Answer. Earlier conclusions in context: memo:aaaaaaaa, memo:bbbbbbbb."},
		{"gemini thought signature carries the thought state", geminiProfile(), geminiPath,
			`{"contents":[{"role":"user","parts":[{"text":"a"}]},{"role":"model","parts":[{"text":"` + m2 + `","thought":true},{"text":"x","thoughtSignature":` + q(gg.thought(m1)) + `}]},{"role":"user","parts":[{"text":"b"}]}]}`,
			"candidates.0.content.parts.1.text", "Answer. Earlier conclusions in context: memo:aaaaaaaa."},
	}
	for _, tt := range tests {
		body := mustJSON(t, post(newSim(t, tt.profile, testSeed), tt.path, tt.body))
		if got := body.Get(tt.answer).String(); got != tt.want {
			t.Errorf("%s: answer %q, want %q", tt.reason, got, tt.want)
		}
	}
}

func TestReasoningText(t *testing.T) {
	long := strings.Repeat("é", 70)
	s := newSim(t, profile("m", modeChat, []string{"reasoning_content"}), testSeed)
	for _, tt := range []struct {
		reason string
		body   string
		want   string
	}{
		{"last user text, not an earlier one", chatBody("m", user("first"), asst(""), user("second")), wantReasoning("second")},
		{"cut at 60 runes, memo over the whole text", chatBody("m", user(long)), "Reasoning on: " + strings.Repeat("é", 60) + ". [memo:" + memoOf(long) + "]"},
		{"no user message", chatBody("m"), wantReasoning("")},
	} {
		got := mustJSON(t, post(s, "/c", tt.body)).Get("choices.0.message.reasoning_content").String()
		if got != tt.want {
			t.Errorf("%s: reasoning %q, want %q", tt.reason, got, tt.want)
		}
	}
}

// memoOf is 8 hex of sha256(text).
func memoOf(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])[:8]
}
