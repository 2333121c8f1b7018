package scenario_test

import (
	"context"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// TestRecordThenReplay records chosen targets against the simulator and
// replays them: every cell the committed table decides must pass (or be a
// declared known failure, or advisory), and nothing may be unverified.
func TestRecordThenReplay(t *testing.T) {
	f, profiles := scenariotest.Committed(t)
	ids := []string{"deepseek", "kimi", "mistral", "cerebras", "openrouter", "copilot", "gemini-openai", "glm"}
	dir := t.TempDir()
	scenariotest.Record(t, f, profiles, dir, "test", ids...)
	r := &scenario.Runner{Matrix: f, Profiles: profiles, CassetteDir: dir}
	m, err := r.RunMatrix(context.Background(), ids, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range m.Cells {
		switch c.Status {
		case report.StatusFail, report.StatusUnverified:
			t.Errorf("%s/%s: %s: %s\nexpected: %s\nactual: %s\nprovider: %s", c.Target, c.Scenario, c.Status, c.Detail, c.Expected, c.Actual, c.ProviderError)
		}
	}
	if c, _ := m.Cell("cerebras", "carriers"); c.Status != report.StatusAdvisory || !strings.Contains(c.Detail, "reasoning") {
		t.Errorf("cerebras/carriers = %s (%s): the strict row sends nothing but Cerebras reads reasoning", c.Status, c.Detail)
	}
	if c, _ := m.Cell("deepseek", "strict-schema"); c.Status != report.StatusNA {
		t.Errorf("deepseek/strict-schema = %s, want n/a", c.Status)
	}
}
