package scenario_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// committedCell judges one cell of the committed cassettes under the
// committed matrix with its table edited by edit.
func committedCell(t *testing.T, target, scen string, edit func(*engine.Table)) report.Cell {
	t.Helper()
	f, err := matrix.Load("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	table := f.Table
	table.Dialects.Anthropic.Routes = append([]engine.AnthropicRoute(nil), f.Table.Dialects.Anthropic.Routes...)
	table.Dialects.Converse.Models = append([]engine.ConverseModel(nil), f.Table.Dialects.Converse.Models...)
	if edit != nil {
		edit(&table)
	}
	// Strict replay, as the gate judges a table edit.
	r := &scenario.Runner{Matrix: f, Table: &table, Profiles: scenariotest.Profiles(t, "../providers"), CassetteDir: "../cassettes", StrictReplay: true}
	tg, ok := f.Target(target)
	if !ok {
		t.Fatalf("no target %s", target)
	}
	sc, _ := scenario.ByName(scen)
	return r.Cell(context.Background(), tg, sc)
}

// anthropicRoute edits the Anthropic route class id.
func anthropicRoute(id string, f func(*engine.AnthropicRoute)) func(*engine.Table) {
	return func(t *engine.Table) {
		for i := range t.Dialects.Anthropic.Routes {
			if t.Dialects.Anthropic.Routes[i].ID == id {
				f(&t.Dialects.Anthropic.Routes[i])
			}
		}
	}
}

// converseRow edits the Bedrock Converse row id.
func converseRow(id string, f func(*engine.ConverseModel)) func(*engine.Table) {
	return func(t *engine.Table) {
		for i := range t.Dialects.Converse.Models {
			if t.Dialects.Converse.Models[i].ID == id {
				f(&t.Dialects.Converse.Models[i])
			}
		}
	}
}

// TestLearntSignatureRefusal: a thinking block signed elsewhere, replayed
// on an earlier turn, is refused; a route that learns rejections passes
// (fingerprinted, retried once, kept across resume), and the same route
// with learn_rejections off fails, since nothing is learnt and the block
// comes back after resume.
func TestLearntSignatureRefusal(t *testing.T) {
	for _, tc := range []struct{ target, route string }{{"anthropic", "anthropic-direct"}, {"vertex-anthropic", "vertex"}, {"foundry-anthropic", "foundry"}, {"bedrock-anthropic-opus", "bedrock"}} {
		if c := committedCell(t, tc.target, "fallback", nil); c.Status != report.StatusPass || !strings.Contains(c.Detail, "learnt") {
			t.Errorf("%s/fallback = %s (%s), want pass with a learnt refusal", tc.target, c.Status, c.Detail)
		}
		off := anthropicRoute(tc.route, func(r *engine.AnthropicRoute) { r.LearnRejections = false })
		c := committedCell(t, tc.target, "fallback", off)
		if c.Status != report.StatusFail || !strings.Contains(c.Actual, "nothing was learnt") {
			t.Errorf("%s/fallback with learn_rejections false = %s (%s; %s), want fail: nothing learnt", tc.target, c.Status, c.Detail, c.Actual)
		}
	}
	// A route that replays no earlier turn's thinking never sends the block.
	if c := committedCell(t, "anthropic-sonnet-4-5", "fallback", nil); c.Status != report.StatusPass || !strings.Contains(c.Detail, "never reached the wire") {
		t.Errorf("anthropic-sonnet-4-5/fallback = %s (%s)", c.Status, c.Detail)
	}
}

// TestNativeReplayEvidence: the carriers cassettes of native routes hold
// the provider's answer under every replay contract, so an edit of
// bedrock_converse or anthropic.routes is judged from a recorded answer:
// the refusal, quoted, where the provider refuses it.
func TestNativeReplayEvidence(t *testing.T) {
	tests := []struct {
		target, why string
		edit        func(*engine.Table)
		status      report.Status
		provider    string
	}{
		{"bedrock-converse-deepseek", "DeepSeek-R1 refuses any reasoningContent sent back",
			converseRow("deepseek", func(m *engine.ConverseModel) { m.Replay = engine.ReplayUnsigned }), report.StatusFail, "User messages cannot contain reasoning content"},
		{"kimi-anthropic", "Kimi's /anthropic refuses a tool turn whose thinking is stripped",
			anthropicRoute("kimi", func(r *engine.AnthropicRoute) { r.Replay = engine.ReplaySigned }), report.StatusFail, "reasoning_content is missing"},
		{"anthropic", "Anthropic refuses a tool turn whose unsigned thinking cannot be verified",
			anthropicRoute("anthropic-direct", func(r *engine.AnthropicRoute) { r.Replay = engine.ReplayUnsigned }), report.StatusFail, "thinking.signature: Field required"},
		{"bedrock-converse-claude-legacy", "a Claude model without extended thinking refuses a thinking configuration",
			converseRow("claude-legacy", func(m *engine.ConverseModel) { m.RequestThinking = true }), report.StatusFail, "does not support thinking"},
		{"bedrock-converse-deepseek", "DeepSeek-R1 refuses a thinking configuration (BerriAI/litellm#33401)",
			converseRow("deepseek", func(m *engine.ConverseModel) { m.RequestThinking = true }), report.StatusFail, "Validation Error"},
		{"bedrock-converse-kimi", "stripping an unsigned reasoner's reasoning is recorded accepted",
			converseRow("unsigned-reasoners", func(m *engine.ConverseModel) { m.Replay = engine.ReplayStripped }), report.StatusPass, ""},
	}
	for _, tc := range tests {
		if c := committedCell(t, tc.target, "carriers", nil); c.Status != report.StatusPass {
			t.Errorf("%s/carriers = %s (%s) under the committed table", tc.target, c.Status, c.Detail)
		}
		c := committedCell(t, tc.target, "carriers", tc.edit)
		if c.Status != tc.status || !strings.Contains(c.ProviderError, tc.provider) {
			t.Errorf("%s: %s/carriers = %s (%s), provider error %q; want %s quoting %q", tc.why, tc.target, c.Status, c.Detail, c.ProviderError, tc.status, tc.provider)
		}
	}
}

// TestUnsignedEndpointPad: on an unsigned Anthropic-compatible endpoint
// that refuses a tool turn without thinking, missing-echo applies and the
// pad is what makes it pass: without the must-echo family the engine
// sends the bare turn, and the cassette holds the refusal.
func TestUnsignedEndpointPad(t *testing.T) {
	for _, target := range []string{"deepseek-anthropic", "kimi-anthropic", "bedrock-deepseek-anthropic"} {
		if c := committedCell(t, target, "missing-echo", nil); c.Status != report.StatusPass {
			t.Errorf("%s/missing-echo = %s (%s)", target, c.Status, c.Detail)
		}
		noEcho := func(t *engine.Table) { t.EchoFamilies = nil }
		if c := committedCell(t, target, "missing-echo", noEcho); c.Status != report.StatusFail || c.ProviderError == "" {
			t.Errorf("%s/missing-echo without must-echo families = %s (%s), want fail with the recorded refusal", target, c.Status, c.Detail)
		}
	}
	if c := committedCell(t, "minimax-anthropic", "missing-echo", nil); c.Status != report.StatusNA {
		t.Errorf("minimax-anthropic/missing-echo = %s: a signing endpoint cannot be padded", c.Status)
	}
}

// families rewrites the Responses families.
func families(f func([]engine.ResponsesFamily) []engine.ResponsesFamily) func(*engine.Table) {
	return func(t *engine.Table) {
		t.Dialects.Responses.Families = f(slices.Clone(t.Dialects.Responses.Families))
	}
}

// mergeInto moves the hosts of family from into family to, dropping from;
// the merged family is one issuer (OpenAI's own is per host, one issuer
// per region, and merging into it would otherwise share nothing).
func mergeInto(to, from string) func(*engine.Table) {
	return families(func(fs []engine.ResponsesFamily) []engine.ResponsesFamily {
		var moved engine.ResponsesFamily
		fs = slices.DeleteFunc(fs, func(f engine.ResponsesFamily) bool {
			if f.ID == from {
				moved = f
				return true
			}
			return false
		})
		for i := range fs {
			if fs[i].ID == to {
				fs[i].Match.Hosts = append(slices.Clone(fs[i].Match.Hosts), moved.Match.Hosts...)
				fs[i].Match.HostPatterns = append(slices.Clone(fs[i].Match.HostPatterns), moved.Match.HostPatterns...)
				fs[i].PerHost = false
			}
		}
		return fs
	})
}

// TestCrossFamilyResponses: a Responses history issued by another family,
// by the same host for another model, by a sibling host or in another
// region (eu.api.openai.com) goes to the target without its reasoning
// items; an edit of responses.families that
// lets another issuer's items through fails the cell with the provider's
// recorded refusal of the foreign encrypted content.
func TestCrossFamilyResponses(t *testing.T) {
	for _, target := range []string{"openai-responses", "azure-openai-responses", "deepseek-responses", "openrouter-responses"} {
		if c := committedCell(t, target, "carriers", nil); c.Status != report.StatusPass || !strings.Contains(c.Detail, "went without its reasoning items") {
			t.Errorf("%s/carriers = %s (%s)", target, c.Status, c.Detail)
		}
	}
	if c := committedCell(t, "openai-responses", "carriers", nil); !strings.Contains(c.Detail, "a turn issued by eu.api.openai.com (gpt-5.1) went without its reasoning items") {
		t.Errorf("openai-responses/carriers does not replay an EU-issued turn: %s", c.Detail)
	}
	perHostOff := families(func(fs []engine.ResponsesFamily) []engine.ResponsesFamily {
		for i := range fs {
			fs[i].PerHost = false
		}
		return fs
	})
	for _, tc := range []struct {
		name, target string
		edit         func(*engine.Table)
		refused      bool // the profile refuses a foreign item; else it accepts it unread
	}{
		{"Azure merged into OpenAI's family", "azure-openai-responses", mergeInto("openai", "azure-openai"), true},
		{"Azure resources no longer per host", "azure-openai-responses", perHostOff, true},
		{"OpenAI's regions one issuer (dust-tt/dust#18119)", "openai-responses", perHostOff, true},
		{"OpenRouter merged into OpenAI's family", "openrouter-responses", mergeInto("openai", "openrouter"), true},
		{"DeepSeek merged into OpenAI's family", "deepseek-responses", mergeInto("openai", "deepseek"), false},
		{"OpenRouter merged into DeepSeek's family", "deepseek-responses", mergeInto("deepseek", "openrouter"), false},
	} {
		c := committedCell(t, tc.target, "carriers", tc.edit)
		switch {
		case c.Status != report.StatusFail:
			t.Errorf("%s: %s/carriers = %s (%s), want fail", tc.name, tc.target, c.Status, c.Detail)
		case tc.refused && c.ProviderError == "":
			t.Errorf("%s: %s/carriers fails (%s) without the recorded refusal", tc.name, tc.target, c.Actual)
		case !tc.refused && !strings.Contains(c.Actual, "its encrypted content was sent"):
			t.Errorf("%s: %s/carriers fails with %q, want the foreign item named as sent", tc.name, tc.target, c.Actual)
		}
	}
}

// TestAnthropicCompatibleClaudeName: a Claude model id sent to DeepSeek's
// /anthropic endpoint (which maps it to a DeepSeek model) is classed by
// the endpoint's host. Dropping the deepseek route class leaves it an
// unknown relay that gets no thinking: the must-echo pad still carries
// the tool turn (recorded accepted), and the compacted session, recorded
// under every native replay contract since the battery covers them
// (nativeVariantTables), is judged from the provider's answer: accepted,
// but advisory, since the endpoint serves a DeepSeek model (its profile
// documents no Claude that keeps only the last turn) recorded reading the
// earlier turns' thinking the route now drops.
func TestAnthropicCompatibleClaudeName(t *testing.T) {
	drop := func(t *engine.Table) {
		t.Dialects.Anthropic.Routes = slices.DeleteFunc(t.Dialects.Anthropic.Routes, func(r engine.AnthropicRoute) bool { return r.ID == "deepseek" })
	}
	for _, tc := range []struct {
		scen           string
		edited         report.Status
		editedContains string
	}{
		{"carriers", report.StatusPass, ""},
		// The resumed session is as thinking-less as the live one, which the
		// variant battery records (issue 18); the compacted one is recorded
		// stripped by the native variants.
		{"resume", report.StatusPass, ""},
		{"compaction", report.StatusAdvisory, "the provider is recorded reading it when it is replayed unsigned"},
	} {
		if c := committedCell(t, "deepseek-anthropic-claude-name", tc.scen, nil); c.Status != report.StatusPass {
			t.Errorf("deepseek-anthropic-claude-name/%s = %s (%s)", tc.scen, c.Status, c.Detail)
		}
		if c := committedCell(t, "deepseek-anthropic-claude-name", tc.scen, drop); (c.Status != tc.edited && (tc.edited != report.StatusAdvisory || !advised(c))) || !strings.Contains(c.Detail, tc.editedContains) {
			t.Errorf("without the deepseek route class: %s = %s (%s), want %s", tc.scen, c.Status, c.Detail, tc.edited)
		}
	}
}

// TestClaudeOnConverseThinksOnlyWhenAsked: Claude on Bedrock Converse
// answers with reasoningContent only when the request enables thinking
// (providers/bedrock-converse.yaml emits.when_thinking), so a table that
// stops requesting it loses the signed reasoning the signed-roundtrip
// cell checks, and the cell fails on the provider's recorded answer.
func TestClaudeOnConverseThinksOnlyWhenAsked(t *testing.T) {
	if c := committedCell(t, "bedrock-converse-claude", "signed-roundtrip", nil); c.Status != report.StatusPass {
		t.Fatalf("bedrock-converse-claude/signed-roundtrip = %s (%s) under the committed table", c.Status, c.Detail)
	}
	c := committedCell(t, "bedrock-converse-claude", "signed-roundtrip",
		converseRow("claude", func(m *engine.ConverseModel) { m.RequestThinking = false }))
	if c.Status != report.StatusFail || c.Actual != "none" {
		t.Errorf("without thinking requested: signed-roundtrip = %s (%s: %s), want fail: Claude returns no reasoning", c.Status, c.Detail, c.Actual)
	}
}

// TestConverseStrippedReasoningTheProviderReads: a Converse row that
// strips reasoningContent from a model recorded reading it when replayed
// (MiniMax M2, Kimi K2 Thinking) makes compaction advisory; DeepSeek-R1,
// which refuses any replayed reasoningContent, and a Claude without
// extended thinking, which gives none, get no advice under their
// committed stripped rows.
func TestConverseStrippedReasoningTheProviderReads(t *testing.T) {
	strip := converseRow("unsigned-reasoners", func(m *engine.ConverseModel) { m.Replay = engine.ReplayStripped })
	for _, target := range []string{"bedrock-converse-minimax", "bedrock-converse-kimi"} {
		if c := committedCell(t, target, "compaction", nil); c.Status != report.StatusPass {
			t.Errorf("%s/compaction = %s (%s) under the committed table", target, c.Status, c.Detail)
		}
		if c := committedCell(t, target, "compaction", strip); !advised(c) || !strings.Contains(c.Detail, "strips reasoningContent") {
			t.Errorf("%s/compaction with the row stripped = %s (%s), want advisory", target, c.Status, c.Detail)
		}
	}
	for _, target := range []string{"bedrock-converse-deepseek", "bedrock-converse-claude-legacy"} {
		if c := committedCell(t, target, "compaction", nil); c.Status != report.StatusPass {
			t.Errorf("%s/compaction = %s (%s) under the committed stripped row, want pass", target, c.Status, c.Detail)
		}
	}
}
