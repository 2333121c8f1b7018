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

// dropPlatform removes the Anthropic platform named platform.
func dropPlatform(platform string) func(*engine.Table) {
	return func(t *engine.Table) {
		t.Dialects.Anthropic.Platforms = slices.DeleteFunc(slices.Clone(t.Dialects.Anthropic.Platforms), func(p engine.AnthropicPlatform) bool { return p.Platform == platform })
	}
}

// dropPlatformPattern removes one host pattern of every Anthropic
// platform.
func dropPlatformPattern(pattern string) func(*engine.Table) {
	return func(t *engine.Table) {
		ps := slices.Clone(t.Dialects.Anthropic.Platforms)
		for i := range ps {
			ps[i].Match.HostPatterns = slices.DeleteFunc(slices.Clone(ps[i].Match.HostPatterns), func(h string) bool { return h == pattern })
		}
		t.Dialects.Anthropic.Platforms = ps
	}
}

// TestWrongPlatformShape: the carriers cassette of a Claude-platform
// target holds the platform's answer to the Messages API's shape, so a
// table that loses the platform (and sends POST /v1/messages with the
// model in the body) fails, quoting the platform's refusal, for the
// target and for an alias the edited table alone serves on the Messages
// shape (its target still on the platform's own).
func TestWrongPlatformShape(t *testing.T) {
	tests := []struct {
		target   string
		alias    int // -1: the target itself
		edit     func(*engine.Table)
		provider string
	}{
		{"bedrock-anthropic", -1, dropPlatform(engine.PlatformBedrock), "UnknownOperationException"},
		{"bedrock-anthropic", 0, dropPlatformPattern("bedrock-runtime-fips.*.amazonaws.com"), "UnknownOperationException"},
		{"vertex-anthropic", -1, dropPlatform(engine.PlatformVertex), "was not found on this server"},
		{"vertex-anthropic", 0, dropPlatformPattern("aiplatform.googleapis.com"), "was not found on this server"},
	}
	for _, tc := range tests {
		if c := platformCell(t, tc.target, tc.alias, nil); c.Status != report.StatusPass {
			t.Errorf("%s~%d/carriers = %s (%s) under the committed table", tc.target, tc.alias, c.Status, c.Detail)
		}
		c := platformCell(t, tc.target, tc.alias, tc.edit)
		if c.Status != report.StatusFail || !strings.Contains(c.ProviderError, tc.provider) {
			t.Errorf("%s~%d/carriers on the Messages shape = %s (%s), provider error %q; want fail quoting %q", tc.target, tc.alias, c.Status, c.Detail, c.ProviderError, tc.provider)
		}
	}
}

// platformCell judges the carriers cell of a target (alias -1) or of one
// of its aliases under the committed matrix with its table edited.
func platformCell(t *testing.T, target string, alias int, edit func(*engine.Table)) report.Cell {
	t.Helper()
	if alias < 0 {
		return committedCell(t, target, "carriers", edit)
	}
	f, err := matrix.Load("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	table := f.Table
	if edit != nil {
		edit(&table)
	}
	r := &scenario.Runner{Matrix: f, Table: &table, Profiles: scenariotest.Profiles(t, "../providers"), CassetteDir: "../cassettes", StrictReplay: true}
	tg, ok := f.Target(target)
	if !ok {
		t.Fatalf("no target %s", target)
	}
	sc, _ := scenario.ByName("carriers")
	return r.AliasCell(context.Background(), tg, alias, sc)
}
