package scenario_test

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/report"
)

// priorFamily edits the prior_thinking capability family name; a nil
// version drops the family.
func priorFamily(name string, from *engine.ModelVersion) func(*engine.Table) {
	return func(t *engine.Table) {
		p := &t.Dialects.Anthropic.PriorThinking
		var out []engine.ModelFamily
		for _, f := range p.Families {
			if f.Name == name {
				if from == nil {
					continue
				}
				f.KeepsFrom = from
			}
			out = append(out, f)
		}
		p.Families = out
	}
}

// TestEarlierTurnThinkingToALastTurnModel: a model its profile documents
// as keeping only the last turn's thinking still has every replayed
// block's signature checked (openclaw/openclaw#99382). A table that
// replays earlier turns' thinking to it anyway (prior_thinking always, or
// a capability table that calls it keeping) sends the earlier turn's
// foreign signature and is refused for it: the fallback cell fails,
// quoting the refusal, where the committed table never sends the block.
func TestEarlierTurnThinkingToALastTurnModel(t *testing.T) {
	always := func(route string) func(*engine.Table) {
		return anthropicRoute(route, func(r *engine.AnthropicRoute) { r.PriorThinking = engine.PriorAlways })
	}
	tests := []struct {
		target, why string
		edit        func(*engine.Table)
	}{
		{"anthropic-sonnet-4-5", "anthropic-direct replays earlier turns always", always("anthropic-direct")},
		{"bedrock-anthropic", "bedrock replays earlier turns always", always("bedrock")},
		{"vertex-anthropic-sonnet-4-5", "vertex replays earlier turns always", always("vertex")},
		{"foundry-anthropic-sonnet-4-5", "foundry replays earlier turns always", always("foundry")},
		{"anthropic-opus-4-1", "the opus family dropped: Opus 4.1 reads as keeping", priorFamily("opus", nil)},
		{"bedrock-anthropic", "sonnet keeps from 4.5: Sonnet 4.5 reads as keeping", priorFamily("sonnet", &engine.ModelVersion{Major: 4, Minor: 5})},
		{"anthropic-haiku-4-5", "the haiku family dropped: Haiku 4.5 reads as keeping", priorFamily("haiku", nil)},
		{"anthropic-claude-3-7", "no never-generation: Claude 3.7 reads as keeping", func(t *engine.Table) { t.Dialects.Anthropic.PriorThinking.NeverGenerations = nil }},
	}
	for _, tc := range tests {
		if c := committedCell(t, tc.target, "fallback", nil); c.Status != report.StatusPass || !strings.Contains(c.Detail, "never reached the wire") {
			t.Errorf("%s/fallback = %s (%s) under the committed table, want pass: the block never reaches the wire", tc.target, c.Status, c.Detail)
		}
		c := committedCell(t, tc.target, "fallback", tc.edit)
		if c.Status != report.StatusFail || !strings.Contains(c.Actual, "replayed and refused (400)") || !strings.Contains(strings.ReplaceAll(c.Actual, "`", ""), "Invalid signature in thinking block") {
			t.Errorf("%s: %s/fallback = %s (%s; %s), want fail quoting the signature refusal", tc.why, tc.target, c.Status, c.Detail, c.Actual)
		}
	}
}

// TestKeepingModelLosesEarlierThinking: a model its profile documents as
// keeping earlier turns' thinking, on a table that stops replaying it to
// that model (its family's threshold moved past it), is advisory after
// compaction: the provider is recorded reading the thinking the route now
// drops. The profile decides who keeps it, never the table under test.
func TestKeepingModelLosesEarlierThinking(t *testing.T) {
	for _, tc := range []struct {
		target, family string
		from           engine.ModelVersion
	}{
		{"anthropic-sonnet-4-6", "sonnet", engine.ModelVersion{Major: 4, Minor: 7}},
		{"anthropic-opus-4-5", "opus", engine.ModelVersion{Major: 4, Minor: 6}},
	} {
		if c := committedCell(t, tc.target, "compaction", nil); c.Status != report.StatusPass {
			t.Fatalf("%s/compaction = %s (%s) under the committed table", tc.target, c.Status, c.Detail)
		}
		c := committedCell(t, tc.target, "compaction", priorFamily(tc.family, &tc.from))
		if !advised(c) || !strings.Contains(c.Detail+c.Actual, "replays no earlier turn's thinking") {
			t.Errorf("%s/compaction with %s keeping from %d.%d = %s (%s; %s), want advisory", tc.target, tc.family, tc.from.Major, tc.from.Minor, c.Status, c.Detail, c.Actual)
		}
	}
}
