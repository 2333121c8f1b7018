package probe_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/probe"
)

// TestAdopt applies a probe's adopt.yaml to a copy of the repository's
// table, and refuses, writing nothing, to adopt what is there already.
func TestAdopt(t *testing.T) {
	res, out := probeSim(t, "cerebras", engine.ModeChat, "/v1", "acme-reasoner")
	profile, err := res.ProfileYAML()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(out, "providers"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "providers", res.Target.ID+".yaml"), []byte(profile), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := probe.WriteAdoption(out, res.Adoption()); err != nil {
		t.Fatal(err)
	}
	a, err := probe.ReadAdoption(out)
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	table, _ := os.ReadFile("../matrix.yaml")
	matrixPath := filepath.Join(repo, "matrix.yaml")
	if err := os.WriteFile(matrixPath, table, 0o644); err != nil {
		t.Fatal(err)
	}
	cassettes, profiles := filepath.Join(repo, "cassettes"), filepath.Join(repo, "providers")

	// A cassette of the target already there: nothing is written.
	taken := filepath.Join(cassettes, res.Target.ID, "carriers.yaml")
	if err := os.MkdirAll(filepath.Dir(taken), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(taken, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := probe.Adopt(out, a, matrixPath, cassettes, profiles); err == nil || !strings.Contains(err.Error(), "never overwrites") {
		t.Errorf("adopting over an existing cassette: %v, want a refusal", err)
	}
	if now, _ := os.ReadFile(matrixPath); !bytes.Equal(now, table) {
		t.Error("a refused adoption edited matrix.yaml")
	}
	if _, err := os.Stat(filepath.Join(profiles, res.Target.ID+".yaml")); err == nil {
		t.Error("a refused adoption wrote the profile")
	}
	os.Remove(taken)

	f, err := probe.Adopt(out, a, matrixPath, cassettes, profiles)
	if err != nil {
		t.Fatal(err)
	}
	tg, ok := f.Target(res.Target.ID)
	if !ok || f.Table.Decide(tg.Route, 0).Carriers != res.Carriers {
		t.Errorf("the adopted table does not send %s to %s", res.Carriers, res.Target.ID)
	}
	for _, c := range a.Cassettes {
		if _, err := os.Stat(filepath.Join(cassettes, c)); err != nil {
			t.Errorf("cassette %s not adopted: %v", c, err)
		}
	}
	if _, err := probe.Adopt(out, a, matrixPath, cassettes, profiles); err == nil || !strings.Contains(err.Error(), "already in") {
		t.Errorf("adopting twice: %v, want a refusal", err)
	}
}
