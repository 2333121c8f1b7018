package scenario_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/report"
)

// adaptiveFamily edits the committed table's adaptive_thinking family
// name: nil From drops it, else its From moves there.
func adaptiveFamily(name string, from *engine.ModelVersion) func(*engine.Table) {
	return func(t *engine.Table) {
		a := &t.Dialects.Anthropic.AdaptiveThinking
		a.Families = slices.Clone(a.Families)
		for i, f := range a.Families {
			if f.Name == name {
				if from == nil {
					a.Families = slices.Delete(a.Families, i, i+1)
				} else {
					a.Families[i].From = from
				}
				return
			}
		}
	}
}

// TestAdaptiveThinkingJudged: anthropic.adaptive_thinking decides what the
// cassettes can judge. A table that gives Opus 4.7 (or Fable 5, or Haiku
// 5.5) a thinking budget again fails its cells on the API's 400, and one that
// asks Sonnet 4.5 for adaptive thinking fails on Sonnet 4.5's.
func TestAdaptiveThinkingJudged(t *testing.T) {
	every := func(t *engine.Table) {
		t.Dialects.Anthropic.AdaptiveThinking.Families = []engine.AdaptiveFamily{{Name: "sonnet"}}
	}
	for _, tc := range []struct {
		name, target string
		edit         func(*engine.Table)
		words        string
	}{
		{"opus from 4.8", "anthropic-opus-4-7", adaptiveFamily("opus", &engine.ModelVersion{Major: 4, Minor: 8}), `\"thinking.type.enabled\" is not supported for this model`},
		{"opus dropped", "anthropic-opus-4-7", adaptiveFamily("opus", nil), `\"thinking.type.enabled\" is not supported for this model`},
		{"fable dropped", "anthropic-fable-5", adaptiveFamily("fable", nil), `\"thinking.type.enabled\" is not supported for this model`},
		{"haiku from 5.6", "anthropic-haiku-5-5", adaptiveFamily("haiku", &engine.ModelVersion{Major: 5, Minor: 6}), `\"thinking.type.enabled\" is not supported for this model`},
		{"haiku dropped", "anthropic-haiku-5-5", adaptiveFamily("haiku", nil), `\"thinking.type.enabled\" is not supported for this model`},
		{"every sonnet adaptive", "anthropic-sonnet-4-5", every, "adaptive thinking is not supported on this model"},
	} {
		for _, scen := range []string{"carriers", "compaction"} {
			if c := committedCell(t, tc.target, scen, nil); c.Status != report.StatusPass {
				t.Errorf("%s/%s = %s (%s) under the committed table", tc.target, scen, c.Status, c.Detail)
			}
			c := committedCell(t, tc.target, scen, tc.edit)
			if c.Status != report.StatusFail || !strings.Contains(c.ProviderError, tc.words) {
				t.Errorf("%s: %s/%s = %s (%s; provider %q), want fail with %q", tc.name, tc.target, scen, c.Status, c.Detail, c.ProviderError, tc.words)
			}
		}
	}
}
