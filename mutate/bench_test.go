package mutate_test

import (
	"context"
	"os"
	"testing"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/mutate"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// BenchmarkMutateCommittedTable judges every mutant of the committed
// matrix.yaml against the committed cassettes. Budget: a whole run of
// about 200 mutants in at most 10 s on 2 cores.
func BenchmarkMutateCommittedTable(b *testing.B) {
	src, err := os.ReadFile("../matrix.yaml")
	if err != nil {
		b.Fatal(err)
	}
	base, err := matrix.Parse("matrix.yaml", src)
	if err != nil {
		b.Fatal(err)
	}
	opts := mutate.Options{Profiles: scenariotest.Profiles(b, "../providers"), CassetteDir: "../cassettes"}
	b.ResetTimer()
	for b.Loop() {
		rep, err := mutate.Run(context.Background(), base, src, opts)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(rep.Mutants)), "mutants")
	}
}
