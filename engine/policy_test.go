package engine_test

import (
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

// TestPriorThinkingCapability is the capability table of
// hermes-semantics §4.3 (group F, 39): which models keep earlier turns'
// thinking, read from matrix.yaml.
func TestPriorThinkingCapability(t *testing.T) {
	p := enginetest.Table(t).Dialects.Anthropic.PriorThinking
	keeps := []string{"opus-4-5", "opus-4-6", "sonnet-4-6", "opus-4-5-20251101", "opus-4-6-20250414", "opus-5", "sonnet-5-5", "fable-5-1", "fable-5-2", "mythos-5", "mythos-6", "mythos-preview", "newfamily-7"}
	lastTurn := []string{"opus-4-4", "sonnet-4-5", "haiku-4-5", "haiku-5", "opus-4-20250514", "sonnet-4-20250514", "sonnet-4-5-20250929", "3-7-sonnet-20250219", "sonnet-4"}
	for _, id := range keeps {
		if !p.Keeps("claude-" + id) {
			t.Errorf("claude-%s should keep prior thinking", id)
		}
	}
	for _, id := range lastTurn {
		if p.Keeps("claude-" + id) {
			t.Errorf("claude-%s keeps only the last turn's thinking", id)
		}
	}
	tests := []struct {
		model  string
		want   bool
		reason string
	}{
		{"hermes-4-405b", false, "a non-Claude model never keeps it"},
		{"us.anthropic.claude-opus-4-8-v1:0", true, "a Bedrock id parses inside its prefix and suffix"},
		{"anthropic.claude-sonnet-4-5-20250929-v1:0", false, "a Bedrock sonnet 4.5 snapshot"},
		{"claude-opus-4-6@20260101", true, "a Vertex version suffix ends the minor"},
		{"anthropic/claude-opus-4.6", true, "dots separate too"},
		{"claude3-opus", false, "Claude 3 without separator"},
		{"claude-3.5-sonnet", false, "Claude 3.5"},
		{"CLAUDE-OPUS-4-5", true, "case does not matter"},
		{"claude-haiku-5-5", true, "haiku reaches its threshold at 5.5"},
	}
	for _, tc := range tests {
		if got := p.Keeps(tc.model); got != tc.want {
			t.Errorf("%s: %s: keeps %v", tc.model, tc.reason, got)
		}
	}
}

func TestEndpointMatch(t *testing.T) {
	tests := []struct {
		m       engine.EndpointMatch
		baseURL string
		model   string
		want    bool
		reason  string
	}{
		{engine.EndpointMatch{HostPatterns: []string{"bedrock-runtime.*.amazonaws.com"}}, "https://bedrock-runtime.eu-west-3.amazonaws.com", "", true, "a region fills the wildcard"},
		{engine.EndpointMatch{HostPatterns: []string{"bedrock-runtime.*.amazonaws.com"}}, "https://bedrock-runtime.amazonaws.com", "", false, "the wildcard needs a label"},
		{engine.EndpointMatch{HostPatterns: []string{"bedrock-runtime.*.amazonaws.com"}}, "https://x.bedrock-runtime.us-east-1.amazonaws.com", "", false, "a pattern matches the whole hostname"},
		{engine.EndpointMatch{HostPatterns: []string{"bedrock-runtime.*.amazonaws.com"}}, "https://bedrock-runtime.us-east-1.amazonaws.com.evil.test", "", false, "a look-alike suffix"},
		{engine.EndpointMatch{HostPatterns: []string{"*-aiplatform.googleapis.com"}}, "https://us-east5-aiplatform.googleapis.com/v1", "", true, "a regional Vertex host"},
		{engine.EndpointMatch{HostPatterns: []string{"*-aiplatform.googleapis.com"}}, "https://-aiplatform.googleapis.com", "", false, "the wildcard takes at least one byte"},
		{engine.EndpointMatch{HostPatterns: []string{"*.services.ai.azure.com"}, Paths: []string{"/anthropic"}}, "https://res.services.ai.azure.com/anthropic/", "", true, "Foundry with its path"},
		{engine.EndpointMatch{HostPatterns: []string{"*.services.ai.azure.com"}, Paths: []string{"/anthropic"}}, "https://res.services.ai.azure.com/anthropicx", "", false, "paths match whole segments"},
		{engine.EndpointMatch{HostPatterns: []string{"*.services.ai.azure.com"}, Paths: []string{"/anthropic"}}, "https://res.services.ai.azure.com/openai", "", false, "the path group must hold"},
		{engine.EndpointMatch{Paths: []string{"/publishers/anthropic"}}, "https://x/v1/projects/p/locations/l/publishers/anthropic/models", "", true, "a run of segments anywhere in the path"},
		{engine.EndpointMatch{Paths: []string{"/publishers/anthropic"}}, "https://x/v1/publishers/google/anthropic", "", false, "the run must be consecutive"},
		{engine.EndpointMatch{Hosts: []string{"api.anthropic.com"}, Models: []string{"deepseek"}}, "https://api.anthropic.com", "DeepSeek-V4", true, "host and model both hold"},
		{engine.EndpointMatch{Hosts: []string{"api.anthropic.com"}, Models: []string{"deepseek"}}, "https://api.anthropic.com", "claude", false, "the model group must hold too"},
	}
	for _, tc := range tests {
		if got := tc.m.Matches(tc.baseURL, tc.model); got != tc.want {
			t.Errorf("%s: %s: %v", tc.baseURL, tc.reason, got)
		}
	}
}

func TestZeroPoliciesReplayNothing(t *testing.T) {
	var p engine.DialectPolicies
	if d := p.Anthropic.Decide("https://api.anthropic.com", "claude-opus-4-6"); d.Replay != engine.ReplayStripped || d.Route != "" || d.Platform != engine.PlatformMessages {
		t.Errorf("zero anthropic policy decided %+v", d)
	}
	if c := p.Converse.For("anthropic.claude-opus-4-6"); c.Replay != engine.ReplayStripped || c.RequestThinking {
		t.Errorf("zero converse policy decided %+v", c)
	}
}

func TestFingerprint(t *testing.T) {
	// sha256("thinking\x00sig")
	if got := engine.Fingerprint("thinking", "sig"); got != "cea64cbdbf23cb4b4efbd234038ca81243af2dfd570f9c787cd28361ce11287d" {
		t.Errorf("fingerprint %q", got)
	}
	if engine.Fingerprint("thinking", "a") == engine.Fingerprint("redacted_thinking", "a") {
		t.Error("the block type is part of the fingerprint")
	}
	if engine.Fingerprint("thinking", "") != "" {
		t.Error("an empty value has no fingerprint")
	}
}

// TestResponsesSameIssuer is SPEC §9.5 as route-table data: a reasoning
// item goes back only to its issuing family, for the same model.
func TestResponsesSameIssuer(t *testing.T) {
	p := enginetest.Table(t).Dialects.Responses
	openai := engine.RouteKey{Provider: "openai", Host: "api.openai.com", Model: "gpt-5.1"}
	for _, tc := range []struct {
		reason string
		route  engine.RouteKey
		want   bool
	}{
		{"the issuing route itself", openai, true},
		{"another provider id on the same family host", engine.RouteKey{Provider: "custom", Host: "api.openai.com", Model: "gpt-5.1"}, true},
		{"another model of the same family", engine.RouteKey{Provider: "openai", Host: "api.openai.com", Model: "gpt-5-mini"}, false},
		{"another family serving the same model", engine.RouteKey{Provider: "azure", Host: "demo.openai.azure.com", Model: "gpt-5.1"}, false},
		{"a relay of the same model", engine.RouteKey{Provider: "openrouter", Host: "openrouter.ai", Model: "gpt-5.1"}, false},
		{"no host", engine.RouteKey{Provider: "openai", Model: "gpt-5.1"}, false},
	} {
		if got := p.SameIssuer(openai, tc.route); got != tc.want {
			t.Errorf("%s: SameIssuer(%+v) = %v, want %v", tc.reason, tc.route, got, tc.want)
		}
	}
	azure := engine.RouteKey{Provider: "azure", Host: "one.openai.azure.com", Model: "gpt-5.1"}
	if p.SameIssuer(azure, engine.RouteKey{Provider: "azure", Host: "two.openai.azure.com", Model: "gpt-5.1"}) {
		t.Error("two Azure resources are two issuers (per_host)")
	}
	if !p.SameIssuer(azure, azure) {
		t.Error("an Azure resource gets its own items back")
	}
	var zero engine.ResponsesPolicy
	if !zero.SameIssuer(openai, openai) || zero.SameIssuer(openai, engine.RouteKey{Host: "eu.api.openai.com", Model: "gpt-5.1"}) {
		t.Error("without families every hostname is a family of its own")
	}
}

// TestAdaptiveThinkingTable is matrix.yaml anthropic.adaptive_thinking:
// Opus from 4.7, Sonnet from 5, every Fable and Mythos id take only
// adaptive thinking (lidge-jun/opencodex PR 65 measured enabled and
// adaptive per model); the 4.x models before them keep the budget.
func TestAdaptiveThinkingTable(t *testing.T) {
	a := enginetest.Table(t).Dialects.Anthropic.AdaptiveThinking
	adaptive := []string{"claude-opus-4-7", "claude-opus-4-8", "claude-opus-5", "claude-sonnet-5", "claude-fable-5", "claude-fable-5-1", "claude-mythos-5", "claude-mythos-preview",
		"us.anthropic.claude-opus-4-7-v1:0", "claude-opus-4-7@20260101", "anthropic/claude-opus-4.7", "CLAUDE-OPUS-4-7", "claude-opus-4-8[1m]"}
	manual := []string{"claude-opus-4-6", "claude-opus-4-5", "claude-opus-4-20250514", "claude-opus-4-1", "claude-sonnet-4-6", "claude-sonnet-4-5", "claude-haiku-4-5",
		"claude-3-7-sonnet-20250219", "us.anthropic.claude-opus-4-6-v1:0", "claude-opus-latest", "claude-mythology-5", "deepseek-v4-pro", "kimi-k2.6", "mythos-5"}
	for _, id := range adaptive {
		if !a.Only(id) {
			t.Errorf("%s takes only adaptive thinking", id)
		}
	}
	for _, id := range manual {
		if a.Only(id) {
			t.Errorf("%s takes manual thinking", id)
		}
	}
	pol := enginetest.Table(t).Dialects.Anthropic
	if !pol.Decide("https://api.anthropic.com", "claude-opus-4-7").Adaptive {
		t.Error("Decide: claude-opus-4-7 on Anthropic's API should be adaptive")
	}
	if pol.Decide("https://api.anthropic.com", "claude-opus-4-6").Adaptive {
		t.Error("Decide: claude-opus-4-6 keeps the thinking budget")
	}
	if (engine.AdaptiveThinking{}).Only("claude-opus-4-7") {
		t.Error("the zero table sends every model a thinking budget")
	}
}

// TestClaudeVersion: a Claude id names its family and version in every
// platform's form; an id naming no listed family's version names none.
func TestClaudeVersion(t *testing.T) {
	families := []string{"haiku", "opus", "sonnet"}
	for _, tc := range []struct {
		model, family string
		v             engine.ModelVersion
		ok            bool
	}{
		{"claude-opus-4-6", "opus", engine.ModelVersion{Major: 4, Minor: 6}, true},
		{"us.anthropic.claude-opus-4-6-v1:0", "opus", engine.ModelVersion{Major: 4, Minor: 6}, true},
		{"claude-sonnet-4-5@20250929", "sonnet", engine.ModelVersion{Major: 4, Minor: 5}, true},
		{"claude-opus-4-20250514", "opus", engine.ModelVersion{Major: 4}, true},
		{"Claude-Haiku-5-5", "haiku", engine.ModelVersion{Major: 5, Minor: 5}, true},
		{"claude-sonnet-5", "sonnet", engine.ModelVersion{Major: 5}, true},
		{"claude-3-7-sonnet-20250219", "", engine.ModelVersion{}, false},
		{"claude-fable-5", "", engine.ModelVersion{}, false},
		{"claude-mythos-preview", "", engine.ModelVersion{}, false},
		{"deepseek-v4-flash", "", engine.ModelVersion{}, false},
	} {
		f, v, ok := engine.ClaudeVersion(tc.model, families)
		if f != tc.family || v != tc.v || ok != tc.ok {
			t.Errorf("ClaudeVersion(%q) = %q, %v, %v; want %q, %v, %v", tc.model, f, v, ok, tc.family, tc.v, tc.ok)
		}
	}
}
