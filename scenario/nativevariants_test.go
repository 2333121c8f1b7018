package scenario_test

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/report"
)

// TestNativeVariantsJudgeMultiTurnEdits: the battery records every
// scenario of a native route under each other native decision (replay
// contract, earlier turns' thinking, learnt rejections, Converse's
// requested thinking), so an edit of anthropic.routes, prior_thinking or
// bedrock_converse is judged from the provider's recorded answers in
// compaction, fallback and carriers rather than left unverified.
func TestNativeVariantsJudgeMultiTurnEdits(t *testing.T) {
	converse := func(id string, f func(*engine.ConverseModel)) func(*engine.Table) {
		return func(t *engine.Table) {
			for i := range t.Dialects.Converse.Models {
				if t.Dialects.Converse.Models[i].ID == id {
					f(&t.Dialects.Converse.Models[i])
				}
			}
		}
	}
	for _, tc := range []struct {
		name, target, scen string
		edit               func(*engine.Table)
	}{
		{"kimi stripped", "kimi-anthropic", "compaction", anthropicRoute("kimi", func(r *engine.AnthropicRoute) { r.Replay = engine.ReplayStripped })},
		{"kimi by capability", "kimi-anthropic", "compaction", anthropicRoute("kimi", func(r *engine.AnthropicRoute) { r.PriorThinking = engine.PriorCapability })},
		{"minimax by capability", "minimax-anthropic", "compaction", anthropicRoute("minimax", func(r *engine.AnthropicRoute) { r.PriorThinking = engine.PriorCapability })},
		{"direct always", "anthropic-sonnet-4-5", "fallback", anthropicRoute("anthropic-direct", func(r *engine.AnthropicRoute) { r.PriorThinking = engine.PriorAlways })},
		{"converse kimi thinking", "bedrock-converse-kimi", "carriers", converse("unsigned-reasoners", func(m *engine.ConverseModel) { m.RequestThinking = true })},
		{"converse claude unrequested", "bedrock-converse-claude", "carriers", converse("claude", func(m *engine.ConverseModel) { m.RequestThinking = false })},
	} {
		if c := committedCell(t, tc.target, tc.scen, tc.edit); c.Status == report.StatusUnverified {
			t.Errorf("%s: %s/%s = unverified (%s), want judged from the recorded native variant", tc.name, tc.target, tc.scen, c.Detail)
		}
	}
}

// TestCompactionAdvisesWhenPriorThinkingIsDropped: a route class edited
// to stop replaying earlier turns' thinking (or all thinking) to Kimi's
// Anthropic endpoint leaves compaction's requests accepted, but the
// native variants record the provider stating every kept turn's
// conclusion when that thinking is replayed, so the cell turns advisory
// (the gate's regression "the provider read reasoning the route no longer
// sends"). A Claude model the capability table says keeps no earlier
// thinking gets no such advice.
func TestCompactionAdvisesWhenPriorThinkingIsDropped(t *testing.T) {
	for _, tc := range []struct {
		name, target string
		edit         func(*engine.Table)
		want         report.Status
	}{
		{"kimi as committed", "kimi-anthropic", nil, report.StatusPass},
		{"kimi by capability", "kimi-anthropic", anthropicRoute("kimi", func(r *engine.AnthropicRoute) { r.PriorThinking = engine.PriorCapability }), report.StatusAdvisory},
		{"kimi stripped", "kimi-anthropic", anthropicRoute("kimi", func(r *engine.AnthropicRoute) { r.Replay = engine.ReplayStripped }), report.StatusAdvisory},
		{"deepseek by capability", "deepseek-anthropic", anthropicRoute("deepseek", func(r *engine.AnthropicRoute) { r.PriorThinking = engine.PriorCapability }), report.StatusAdvisory},
		{"sonnet 4.5 as committed", "anthropic-sonnet-4-5", nil, report.StatusPass},
	} {
		c := committedCell(t, tc.target, "compaction", tc.edit)
		if got := c.Status; got != tc.want && (tc.want != report.StatusAdvisory || !advised(c)) {
			t.Errorf("%s: %s/compaction = %s (%s), want %s", tc.name, tc.target, c.Status, c.Detail, tc.want)
		} else if tc.want == report.StatusAdvisory && !strings.Contains(c.Detail, "the provider is recorded reading it") {
			t.Errorf("%s: advisory without naming the recorded reading: %s", tc.name, c.Detail)
		}
	}
}
