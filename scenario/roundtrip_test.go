package scenario_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/sim"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// recordAll records every applicable cell of the given targets against the
// simulator into dir.
func recordAll(t *testing.T, f *matrix.File, profiles map[string]*providers.Profile, dir string, ids ...string) {
	t.Helper()
	for _, id := range ids {
		target, _ := f.Target(id)
		p := profiles[target.Profile]
		s, err := sim.New(p, sim.Options{Seed: "test"})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(s)
		for _, sc := range scenario.All() {
			if ok, _ := sc.Applies(target, p); !ok {
				continue
			}
			its, rec, err := scenario.Record(context.Background(), target, &f.Table, sc, harness.RecordOptions{SendBaseURL: srv.URL + "/base"})
			if err != nil {
				t.Fatalf("%s/%s: %v", id, sc.Name, err)
			}
			name, version, ok := rec.Simulator()
			if !ok {
				t.Fatalf("%s/%s: no simulator header", id, sc.Name)
			}
			file := &harness.File{Version: 2, Provenance: harness.Provenance{Kind: harness.Simulated, Target: id, Scenario: sc.Name, Profile: name, ProfileVersion: version}, Interactions: its}
			if err := harness.Write(harness.Path(dir, id, sc.Name), file); err != nil {
				t.Fatal(err)
			}
		}
		srv.Close()
	}
}

func TestRecordThenReplay(t *testing.T) {
	f, err := matrix.Load("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	list, err := providers.LoadDir("../providers")
	if err != nil {
		t.Fatal(err)
	}
	profiles := map[string]*providers.Profile{}
	for _, p := range list {
		profiles[p.Name] = p
	}
	dir := t.TempDir()
	var ids []string
	for _, tg := range f.Targets {
		ids = append(ids, tg.ID)
	}
	if testing.Short() {
		ids = []string{"deepseek", "mistral", "openrouter"}
	}
	recordAll(t, f, profiles, dir, ids...)
	r := &scenario.Runner{Matrix: f, Profiles: profiles, CassetteDir: dir}
	m, err := r.RunMatrix(context.Background(), ids, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = report.WriteTable(os.Stdout, m, false)
	for _, c := range m.Cells {
		if c.Status == report.StatusFail || c.Status == report.StatusUnverified {
			fmt.Printf("%s/%s: %s\n  expected: %s\n  actual: %s\n  provider: %s\n", c.Target, c.Scenario, c.Detail, c.Expected, c.Actual, c.ProviderError)
		}
	}
	_ = filepath.Join
}
