package mutate_test

import (
	"context"
	"os"
	"testing"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/mutate"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

func readMatrix(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// runWithoutAliases judges the mutants of src (only those of edits, when
// given) on one target with its aliases removed.
func runWithoutAliases(t *testing.T, src, target string, edits ...string) *mutate.Report {
	t.Helper()
	base, err := matrix.Parse("matrix.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tg, _ := base.Target(target)
	tg.Aliases = nil
	base.Targets = []matrix.Target{tg}
	rep, err := mutate.Run(context.Background(), base, []byte(src), mutate.Options{Profiles: scenariotest.Profiles(t, "../providers"), CassetteDir: "../cassettes", Edits: edits})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
