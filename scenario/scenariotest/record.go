// Package scenariotest records cassettes against the in-process simulator
// for tests that need a cassette directory of their own.
package scenariotest

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/sim"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// Committed loads the committed route table and provider profiles, as
// seen from a package directory of the repository's root.
func Committed(tb testing.TB) (*matrix.File, map[string]*providers.Profile) {
	tb.Helper()
	f, err := matrix.Load("../matrix.yaml")
	if err != nil {
		tb.Fatal(err)
	}
	return f, Profiles(tb, "../providers")
}

// Profiles loads the provider profiles of dir by name.
func Profiles(tb testing.TB, dir string) map[string]*providers.Profile {
	tb.Helper()
	list, err := providers.LoadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return providers.ByName(list)
}

// Record records every applicable scenario of the given targets against
// the simulator (seeded with seed) and writes the cassettes under dir.
func Record(tb testing.TB, f *matrix.File, profiles map[string]*providers.Profile, dir, seed string, ids ...string) {
	tb.Helper()
	for _, id := range ids {
		target, ok := f.Target(id)
		if !ok {
			tb.Fatalf("unknown target %s", id)
		}
		p := profiles[target.Profile]
		s, err := sim.New(p, sim.Options{Seed: seed})
		if err != nil {
			tb.Fatal(err)
		}
		srv := httptest.NewServer(s)
		for _, sc := range scenario.All() {
			if ok, _ := sc.Applies(target, p); !ok {
				continue
			}
			its, rec, err := scenario.RecordWith(context.Background(), target, &f.Table, p, sc, harness.RecordOptions{SendBaseURL: srv.URL + "/base"})
			if err != nil {
				srv.Close()
				tb.Fatalf("%s/%s: %v", id, sc.Name, err)
			}
			file := scenario.CassetteFile(target, sc, its, rec, "", "")
			if err := harness.Write(harness.Path(dir, id, sc.Name), file); err != nil {
				srv.Close()
				tb.Fatal(err)
			}
		}
		srv.Close()
	}
}
