package scenario_test

import (
	"context"
	"slices"
	"testing"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// TestMoonshotAnthropicAliases: Moonshot's platforms' Anthropic-compatible
// endpoints, judged as aliases of kimi-anthropic (its profile describes
// api.moonshot.ai and api.moonshot.cn), get every cell the target gets
// under the committed table (the must-echo pad included); without their
// host in the kimi route class they are unknown relays that strip the
// earlier turns' thinking Kimi is recorded reading: compaction is
// advisory.
func TestMoonshotAnthropicAliases(t *testing.T) {
	f, err := matrix.Load("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tg, ok := f.Target("kimi-anthropic")
	if !ok {
		t.Fatal("no target kimi-anthropic")
	}
	profiles := scenariotest.Profiles(t, "../providers")
	run := &scenario.Runner{Matrix: f, Table: &f.Table, Profiles: profiles, CassetteDir: "../cassettes", StrictReplay: true}
	ctx := context.Background()
	for i, a := range tg.Aliases {
		for _, sc := range scenario.All() {
			want, got := run.Cell(ctx, tg, sc), run.AliasCell(ctx, tg, i, sc)
			if got.Status != want.Status {
				t.Errorf("%s (%s)/%s = %s (%s; %s; %s), target %s", tg.AliasName(i), a.Route.BaseURL, sc.Name, got.Status, got.Detail, got.Actual, got.ProviderError, want.Status)
			}
		}
		host := map[int]string{0: "moonshot.ai", 1: "moonshot.cn"}[i]
		table := f.Table
		table.Dialects.Anthropic.Routes = slices.Clone(f.Table.Dialects.Anthropic.Routes)
		for j := range table.Dialects.Anthropic.Routes {
			r := &table.Dialects.Anthropic.Routes[j]
			if r.ID == "kimi" {
				r.Match.Hosts = slices.DeleteFunc(slices.Clone(r.Match.Hosts), func(h string) bool { return h == host })
			}
		}
		edited := &scenario.Runner{Matrix: f, Table: &table, Profiles: profiles, CassetteDir: "../cassettes", StrictReplay: true}
		sc, _ := scenario.ByName("compaction")
		if c := edited.AliasCell(ctx, tg, i, sc); !advised(c) {
			t.Errorf("%s/compaction without %s in the kimi route class = %s (%s), want advisory", tg.AliasName(i), host, c.Status, c.Detail)
		}
	}
	if len(tg.Aliases) != 2 {
		t.Errorf("kimi-anthropic has %d aliases, want Moonshot's two platforms", len(tg.Aliases))
	}
}
