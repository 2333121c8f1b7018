package sim

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/providers"
)

func TestNewRefuses(t *testing.T) {
	tests := []struct {
		reason  string
		profile *providers.Profile
		want    string
	}{
		{"no profile", nil, "no profile"},
		{"invalid profile", profile("Bad Name", modeChat, []string{"reasoning_content"}), "not kebab-case"},
		{"tool_turn_field_missing is not simulated for gemini", geminiProfile(withRule(cond(providers.ConditionToolTurnFieldMissing, "thoughtSignature"))), "rule rule-tool-turn-field-missing: condition tool_turn_field_missing(thoughtSignature) is not simulated for api mode gemini"},
		{"an Anthropic signed field on a chat profile", profile("c", modeChat, []string{"reasoning_content"}, withRule(cond(providers.ConditionSignatureInvalid, "thinking.signature"))), "not simulated for api mode chat"},
		{"foreign blobs need a sealed chat carrier", profile("c", modeChat, []string{"extra_content"}, withRule(cond(providers.ConditionSealedBlobForeign, "extra_content.google.thought_signature"))), "sealed_blob_foreign(extra_content.google.thought_signature) is not simulated"},
		{"converse reasoning check on an Anthropic field", converseProfile(withRule(cond(providers.ConditionSignatureMissing, "thinking.signature"))), "not simulated for api mode bedrock-converse"},
		{"a chat carrier condition on a Responses profile", openaiRespProfile(withRule(cond(providers.ConditionAssistantFieldPresent, "reasoning_content"))), "assistant_field_present(reasoning_content) is not simulated for api mode responses"},
		{"an item condition on a chat profile", profile("c", modeChat, []string{"reasoning_content"}, withRule(cond(providers.ConditionItemWithoutReasoning, ""))), "item_without_reasoning() is not simulated for api mode chat"},
	}
	for _, tt := range tests {
		_, err := New(tt.profile, Options{Seed: testSeed})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to contain %q", tt.reason, err, tt.want)
		}
	}
}

// TestCommittedProfiles builds a simulator for every profile under
// providers/ and answers one plain request with each: a profile whose rules
// the simulator cannot evaluate fails here, not at `replaycheck serve`.
func TestCommittedProfiles(t *testing.T) {
	list, err := providers.LoadDir("../providers")
	if err != nil {
		t.Fatalf("loading profiles: %v", err)
	}
	for _, p := range list {
		s, err := New(p, Options{Seed: testSeed})
		if err != nil {
			t.Errorf("%s: %v", p.Name, err)
			continue
		}
		path, body := "/v1/chat/completions", chatAnswerRequest
		switch p.APIMode {
		case modeAnthropic:
			path, body = "/v1/messages", anthropicAnswer
		case modeConverse:
			path, body = conversePath, converseAnswer
		case modeGemini:
			path, body = geminiPath, geminiAnswer
		case modeResponses:
			path, body = respPath, respAnswer
		}
		for _, r := range p.Rules {
			// A platform that serves no /v1/messages is asked on its own
			// path, and answers the Messages path with its refusal.
			if r.When.Kind != providers.ConditionPathNotServed || !strings.HasSuffix(path, r.When.Field) {
				continue
			}
			if rec := post(s, path, body); rec.Code != r.Status || !strings.Contains(rec.Body.String(), "404") && !strings.Contains(rec.Body.String(), "UnknownOperation") {
				t.Errorf("%s: %s got %d (%.120s), want rule %s's %d", p.Name, path, rec.Code, rec.Body, r.ID, r.Status)
			}
			path = "/model/anthropic.claude-opus-4-6-v1:0/invoke"
			if strings.Contains(p.Name, "vertex") {
				path = "/v1/projects/demo/locations/us-east5/publishers/anthropic/models/claude-opus-4-6:rawPredict"
			}
		}
		if rec := post(s, path, body); rec.Code != 200 {
			t.Errorf("%s: a first-turn request got %d: %.200s", p.Name, rec.Code, rec.Body)
		}
	}
}
