package scenario_test

import (
	"context"
	"slices"
	"testing"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// TestQualityCurve runs the curve over the whole matrix and wants the
// seed's picture: on every target whose provider reads earlier reasoning,
// the reference engine's answers state every kept conclusion right after
// each compaction, and the baseline's (which strips them) state none;
// targets whose provider reads nothing earlier are not charted. A
// regressed reference compaction (or a baseline that stopped stripping)
// turns it red.
func TestQualityCurve(t *testing.T) {
	f, err := matrix.Load("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	q, err := scenario.QualityCurve(context.Background(), f, scenariotest.Profiles(t, "../providers"))
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Targets) != len(f.Targets) || q.Questions != scenario.CurveQuestions || q.Provenance != "simulated" {
		t.Fatalf("curve of %d targets, %d questions, %q; want %d, %d, simulated", len(q.Targets), q.Questions, q.Provenance, len(f.Targets), scenario.CurveQuestions)
	}
	charted := 0
	for i, c := range q.Targets {
		if c.Target != f.Targets[i].ID || c.Family == "" {
			t.Errorf("curve %d is %q in family %q, want %s in matrix order with a family", i, c.Target, c.Family, f.Targets[i].ID)
		}
		if len(c.Reference.Stated) == scenario.CurveQuestions && len(c.Reference.Refused) == scenario.CurveQuestions {
			// A provider that refuses every request the route sends
			// (bedrock-converse-nova) gives no answer to read: only a
			// declared known failure may do that.
			if !slices.ContainsFunc(f.KnownFailures, func(k matrix.KnownFailure) bool { return k.Target == c.Target }) {
				t.Errorf("%s: the provider refused all %d requests of the reference session, and no known failure is declared for it", c.Target, scenario.CurveQuestions)
			}
			if c.Reads == report.ReadsPrior {
				t.Errorf("%s: charted although no answer was read", c.Target)
			}
			continue
		}
		if len(c.Reference.Stated) != scenario.CurveQuestions || len(c.Reference.Compactions) < 3 {
			t.Errorf("%s: %d answers, %d compactions; want %d answers and several compactions", c.Target, len(c.Reference.Stated), len(c.Reference.Compactions), scenario.CurveQuestions)
		}
		if c.Reads != report.ReadsPrior {
			continue
		}
		charted++
		for k, share := range c.Reference.After {
			if share != 100 {
				t.Errorf("%s: after compaction %d the reference engine's answer states %d%% of the kept conclusions, want 100%%", c.Target, k+1, share)
			}
		}
		for k, share := range c.Baseline.After {
			if share != 0 {
				t.Errorf("%s: after compaction %d the baseline's answer states %d%% of the kept conclusions, want 0%% (it strips them)", c.Target, k+1, share)
			}
		}
		if len(c.Baseline.After) == 0 {
			t.Errorf("%s: the baseline never compacted", c.Target)
		}
	}
	if charted < len(f.Targets)/2 {
		t.Errorf("only %d of %d targets charted", charted, len(f.Targets))
	}
}

// BenchmarkQualityCurve is the whole matrix's curve, as make reports runs
// it (budget: at most 2 s on 2 cores).
func BenchmarkQualityCurve(b *testing.B) {
	f, err := matrix.Load("../matrix.yaml")
	if err != nil {
		b.Fatal(err)
	}
	profiles := scenariotest.Profiles(b, "../providers")
	for b.Loop() {
		if _, err := scenario.QualityCurve(context.Background(), f, profiles); err != nil {
			b.Fatal(err)
		}
	}
}
