package probe_test

import (
	"os"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// TestProbeRecordsTheWholeColumn: the proposed column covers every
// scenario of the matrix, every scenario that applies to the target is
// recorded under --out/<target>/ (so adopting the cassettes leaves no cell
// unverified), and every such cell passes under the proposal.
func TestProbeRecordsTheWholeColumn(t *testing.T) {
	tests := []struct {
		profile string
		model   string
		reason  string
	}{
		{"deepseek", "acme-reasoner", "a must-echo provider is judged on resume, compaction and branch too"},
		{"mistral", "acme-reasoner", "a strict schema is judged on fallback too"},
		{"openrouter", "acme-reasoner", "a gateway is judged on signed-roundtrip, resume, compaction and branch"},
	}
	for _, tt := range tests {
		res, out := probeSim(t, tt.profile, engine.ModeChat, "/v1", tt.model)
		if got, want := len(res.Column.Scenarios), len(scenario.All()); got != want {
			t.Errorf("%s: the column covers %d of %d scenarios %v: %s", tt.profile, got, want, res.Column.Scenarios, tt.reason)
		}
		judged := 0
		for _, c := range res.Column.Cells {
			_, err := os.Stat(harness.Path(out, res.Target.ID, c.Scenario))
			switch {
			case c.Status == report.StatusNA && err == nil:
				t.Errorf("%s: %s does not apply, but its cassette is among the target's", tt.profile, c.Scenario)
			case c.Status == report.StatusNA:
			case err != nil:
				t.Errorf("%s: %s applies (%s), but no cassette of it is under %s: %v", tt.profile, c.Scenario, c.Status, out, err)
			case c.Status != report.StatusPass:
				t.Errorf("%s: under the proposal %s is %s: %s %s", tt.profile, c.Scenario, c.Status, c.Detail, c.ProviderError)
			default:
				judged++
			}
		}
		if judged < 5 {
			t.Errorf("%s: %d cells judged, want the whole column (at least carriers, resume, compaction, branch and one more): %s", tt.profile, judged, tt.reason)
		}
	}
}
