package scenario_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// TestAliasCellsReplayAsTheirRunner: an alias is judged by recorded
// answers only when its runner is (the gate's and mutate's strict replay):
// a decision for the alias that sends a request no cassette holds (here a
// vendor flag only the alias's provider id gets) is unverified there,
// never judged by the provider's simulator; without strict replay the
// simulator judges it, as it would the target's.
func TestAliasCellsReplayAsTheirRunner(t *testing.T) {
	f, err := matrix.Load("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tg, ok := f.Target("deepseek")
	if !ok || len(tg.Aliases) == 0 {
		t.Fatal("no target deepseek with aliases")
	}
	table := f.Table
	table.Flags = append(slices.Clone(f.Table.Flags), engine.FlagRule{
		ID:    "alias-only",
		Match: engine.Match{Providers: []string{tg.Aliases[0].Route.Provider}},
		Set:   []engine.FlagSetting{{Path: "unrecorded_flag", Value: json.RawMessage(`true`)}},
	})
	profiles := scenariotest.Profiles(t, "../providers")
	sc, _ := scenario.ByName("carriers")
	ctx := context.Background()
	strict := &scenario.Runner{Matrix: f, Table: &table, Profiles: profiles, CassetteDir: "../cassettes", StrictReplay: true}
	if c := strict.AliasCell(ctx, tg, 0, sc); c.Status != report.StatusUnverified {
		t.Errorf("strict replay: %s/carriers = %s (%s), want unverified", tg.AliasName(0), c.Status, c.Detail)
	}
	loose := &scenario.Runner{Matrix: f, Table: &table, Profiles: profiles, CassetteDir: "../cassettes"}
	if c := loose.AliasCell(ctx, tg, 0, sc); c.Status != report.StatusPass || c.Provenance != "profile" {
		t.Errorf("without strict replay: %s/carriers = %s (%s, %s), want a pass judged by the profile", tg.AliasName(0), c.Status, c.Provenance, c.Detail)
	}
}
