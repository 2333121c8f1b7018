package scenario_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// TestUndocumentedThinkingTypeRefusedInProviderWords: the variant battery
// records each flag value changed, so a table that sends Z.ai or Moonshot
// a thinking.type they do not document ("enabled-changed") is judged by
// strict replay from the cassettes, not left unverified: the carriers
// cell fails with the provider's own refusal (Z.ai's 1210 invalid
// parameter, Moonshot's "invalid thinking"), per each profile's
// thinking-type-invalid rule. Under the committed table the cell passes.
func TestUndocumentedThinkingTypeRefusedInProviderWords(t *testing.T) {
	f, profiles := scenariotest.Committed(t)
	sc, _ := scenario.ByName("carriers")
	ctx := context.Background()
	for _, tc := range []struct{ target, flag, words string }{
		{"glm", "glm-preserved-thinking", `"code":"1210"`},
		{"kimi", "kimi-keep-all", "invalid thinking"},
	} {
		tg, ok := f.Target(tc.target)
		if !ok {
			t.Fatalf("no target %s", tc.target)
		}
		base := &scenario.Runner{Matrix: f, Table: &f.Table, Profiles: profiles, CassetteDir: "../cassettes", StrictReplay: true}
		if c := base.Cell(ctx, tg, sc); c.Status != report.StatusPass {
			t.Errorf("%s/carriers under the committed table = %s (%s), want pass", tc.target, c.Status, c.Detail)
		}
		table := f.Table
		table.Flags = slices.Clone(f.Table.Flags)
		changed := false
		for i := range table.Flags {
			if table.Flags[i].ID != tc.flag {
				continue
			}
			table.Flags[i].Set = slices.Clone(table.Flags[i].Set)
			for j := range table.Flags[i].Set {
				if table.Flags[i].Set[j].Path == "thinking.type" {
					table.Flags[i].Set[j].Value = []byte(`"enabled-changed"`)
					changed = true
				}
			}
		}
		if !changed {
			t.Fatalf("flag %s sets no thinking.type", tc.flag)
		}
		edited := &scenario.Runner{Matrix: f, Table: &table, Profiles: profiles, CassetteDir: "../cassettes", StrictReplay: true}
		c := edited.Cell(ctx, tg, sc)
		if c.Status != report.StatusFail || !strings.Contains(c.ProviderError, tc.words) {
			t.Errorf("%s/carriers with thinking.type enabled-changed = %s (%s; %q), want fail with the provider's %s", tc.target, c.Status, c.Detail, c.ProviderError, tc.words)
		}
	}
}
