package sim

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/providers"
)

// TestConverseWhenThinking: a profile whose emits.when_thinking is set
// answers with reasoningContent (plain or redacted) only when the request
// enables thinking through additionalModelRequestFields; without the flag
// the profile emits it either way.
func TestConverseWhenThinking(t *testing.T) {
	on := strings.TrimSuffix(converseAnswer, "}") + `,"additionalModelRequestFields":{"thinking":{"type":"enabled","budget_tokens":1024}}}`
	redacted := strings.Replace(converseAnswer, userQuestion, redactTrigger, 1)
	whenThinking := func(p *providers.Profile) { p.Emits.WhenThinking = true }
	tests := []struct {
		reason  string
		edit    []func(p *providers.Profile)
		request string
		want    bool
	}{
		{"when_thinking, thinking off: no reasoning", []func(p *providers.Profile){whenThinking}, converseAnswer, false},
		{"when_thinking, thinking off, redaction trigger: no redacted reasoning either", []func(p *providers.Profile){whenThinking}, redacted, false},
		{"when_thinking, thinking on: reasoning", []func(p *providers.Profile){whenThinking}, on, true},
		{"no when_thinking, thinking off: reasoning", nil, converseAnswer, true},
	}
	for _, tt := range tests {
		s := newSim(t, converseProfile(tt.edit...), testSeed)
		body := mustJSON(t, post(s, conversePath, tt.request))
		if got := body.Get("output.message.content.0.reasoningContent").Exists(); got != tt.want {
			t.Errorf("%s: reasoningContent present = %v, want %v: %s", tt.reason, got, tt.want, body.Get("output.message.content"))
		}
	}
}

// TestConverseRedacted: a profile whose emits.redacted is set (OpenAI's
// GPT models on Converse) answers every turn with a sealed
// redactedContent blob and never with readable reasoningText; without it
// a blob comes only for the redaction trigger.
func TestConverseRedacted(t *testing.T) {
	redacted := func(p *providers.Profile) { p.Emits.Redacted = true }
	for _, tt := range []struct {
		reason string
		edit   []func(p *providers.Profile)
		want   string
	}{
		{"redacted: a blob", []func(p *providers.Profile){redacted}, "redactedContent"},
		{"not redacted: readable text", nil, "reasoningText"},
	} {
		s := newSim(t, converseProfile(tt.edit...), testSeed)
		body := mustJSON(t, post(s, conversePath, converseAnswer))
		rc := body.Get("output.message.content.0.reasoningContent")
		if !rc.Get(tt.want).Exists() || rc.Get("redactedContent").Exists() == rc.Get("reasoningText").Exists() {
			t.Errorf("%s: reasoningContent = %s, want only %s", tt.reason, rc, tt.want)
		}
	}
}
