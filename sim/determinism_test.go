package sim

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/providers"
)

func TestDeterminism(t *testing.T) {
	cases := []struct {
		reason  string
		profile func() *providers.Profile
		path    string
		body    string
		sig     string // gjson path of a signature in the whole answer, "" for streams
	}{
		{"chat whole", func() *providers.Profile {
			return profile("gw", modeChat, []string{"reasoning", "reasoning_details"}, format("anthropic-claude-v1"), signing(providers.SchemeThinkingSignature, "reasoning_details"))
		}, "/v1/chat/completions", chatToolRequest, "choices.0.message.reasoning_details.0.signature"},
		{"chat stream", func() *providers.Profile {
			return profile("copilot", modeChat, []string{"reasoning_text", "reasoning_opaque"}, signing(providers.SchemeReasoningOpaque, "reasoning_opaque"))
		}, "/v1/chat/completions", streamed(chatToolRequest), ""},
		{"anthropic whole", func() *providers.Profile { return anthropicProfile() }, "/v1/messages", anthropicTool, "content.0.signature"},
		{"anthropic stream", func() *providers.Profile { return anthropicProfile() }, "/v1/messages", streamed(anthropicAnswer), ""},
		{"converse whole", func() *providers.Profile { return converseProfile() }, conversePath, converseTool, "output.message.content.0.reasoningContent.reasoningText.signature"},
		{"converse stream", func() *providers.Profile { return converseProfile() }, strings.Replace(conversePath, "converse", "converse-stream", 1), converseTool, ""},
		{"gemini whole", func() *providers.Profile { return geminiProfile() }, geminiPath, geminiTool, "candidates.0.content.parts.1.thoughtSignature"},
		{"gemini stream", func() *providers.Profile { return geminiProfile() }, geminiStream, geminiAnswer, ""},
		{"responses whole", func() *providers.Profile { return openaiRespProfile() }, respPath, respTool, "output.0.encrypted_content"},
		{"responses stream", func() *providers.Profile { return openaiRespProfile() }, respPath, streamed(respAnswer), ""},
	}
	for _, tc := range cases {
		a := post(newSim(t, tc.profile(), "seed-1"), tc.path, tc.body)
		b := post(newSim(t, tc.profile(), "seed-1"), tc.path, tc.body)
		c := post(newSim(t, tc.profile(), "seed-2"), tc.path, tc.body)
		if a.Code != 200 || !bytes.Equal(a.Body.Bytes(), b.Body.Bytes()) {
			t.Errorf("%s: same seed and request gave different answers (status %d)", tc.reason, a.Code)
		}
		if bytes.Equal(a.Body.Bytes(), c.Body.Bytes()) {
			t.Errorf("%s: a different seed gave the same answer", tc.reason)
		}
		if tc.sig != "" {
			sa, sc := gjson.GetBytes(a.Body.Bytes(), tc.sig).String(), gjson.GetBytes(c.Body.Bytes(), tc.sig).String()
			if sa == "" || sa == sc {
				t.Errorf("%s: signatures %q and %q, want two different non-empty ones", tc.reason, sa, sc)
			}
		}
	}
}

func TestRandomSeed(t *testing.T) {
	p := anthropicProfile()
	a := post(newSim(t, p, ""), "/v1/messages", anthropicAnswer)
	b := post(newSim(t, p, ""), "/v1/messages", anthropicAnswer)
	sa, sb := gjson.Get(a.Body.String(), "content.0.signature").String(), gjson.Get(b.Body.String(), "content.0.signature").String()
	if sa == "" || sa == sb {
		t.Errorf("empty seeds gave signatures %q and %q, want distinct random keys", sa, sb)
	}
}

func TestSign(t *testing.T) {
	anth := newSim(t, anthropicProfile(), testSeed)
	body := mustJSON(t, post(anth, "/v1/messages", anthropicAnswer))
	if got, want := anth.Sign(wantReasoning(userQuestion)), body.Get("content.0.signature").String(); got != want {
		t.Errorf("anthropic: Sign = %q, the answer carries %q", got, want)
	}
	gem := newSim(t, geminiProfile(), testSeed)
	body = mustJSON(t, post(gem, geminiPath, geminiTool))
	if got, want := gem.Sign(wantReasoning(userQuestion)), body.Get("candidates.0.content.parts.1.thoughtSignature").String(); got != want {
		t.Errorf("gemini: Sign = %q, the answer carries %q", got, want)
	}
	other := newSim(t, profile("other", modeAnthropic, []string{"thinking"}, signing(providers.SchemeThinkingSignature, "thinking.signature")), testSeed)
	if other.Sign("x") == anth.Sign("x") {
		t.Error("two profiles under one seed issue the same signature")
	}
}
