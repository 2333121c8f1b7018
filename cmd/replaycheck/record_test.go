package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/replaycheck/replaycheck/sim"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// recordArgs are the arguments of an in-process recording of one small
// cell against the in-process simulator.
func recordArgs(out string, extra ...string) []string {
	return append([]string{"record", "--matrix", repoMatrix, "--providers", repoProviders,
		"--target", "deepseek", "--scenario", "missing-echo", "--out", out}, extra...)
}

func TestRecordUsageErrors(t *testing.T) {
	t.Setenv("CI", "")
	t.Setenv("REPLAYCHECK_EMPTY_KEY", "")
	out := t.TempDir()
	base := []string{"record", "--matrix", repoMatrix, "--providers", repoProviders, "--out", out}
	tests := []struct {
		reason string
		args   []string
		stderr string
	}{
		{"no target", nil, "missing required --target (or --all)"},
		{"a target and --all", []string{"--target", "deepseek", "--all"}, "--target and --all exclude each other"},
		{"--simulate and --base-url", []string{"--target", "deepseek", "--simulate", "--base-url", "http://127.0.0.1:1"}, "--simulate and --base-url exclude each other"},
		{"--seed without --simulate", []string{"--target", "deepseek", "--seed", "s"}, "--seed is the simulator's signing seed: it needs --simulate"},
		{"a negative cap", []string{"--target", "deepseek", "--max-requests", "-1"}, "--max-requests -1: must be 0 (no cap) or more"},
		{"a base URL that is not absolute", []string{"--target", "deepseek", "--base-url", "localhost:8080"}, `--base-url "localhost:8080": want an absolute http(s) URL`},
		{"an unknown target", []string{"--target", "deepseek,nope", "--simulate"}, `--target "nope": no such target in ` + repoMatrix},
		{"an unknown scenario", []string{"--target", "deepseek", "--scenario", "everything", "--simulate"}, `--scenario "everything": unknown scenario`},
		{"an empty key variable", []string{"--target", "deepseek", "--key-env", "REPLAYCHECK_EMPTY_KEY", "--simulate"}, "--key-env REPLAYCHECK_EMPTY_KEY: the variable is unset or empty"},
		{"a stray argument", []string{"--target", "deepseek", "extra"}, `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			r := runMain(t, "", append(append([]string(nil), base...), tt.args...)...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tt.stderr) || !strings.Contains(r.stderr, "usage: replaycheck record") {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 2, %q and the usage", r.code, r.stderr, tt.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout %q", r.stdout)
			}
		})
	}
	if entries, _ := os.ReadDir(out); len(entries) > 0 {
		t.Errorf("a refused command wrote %d entries to --out", len(entries))
	}
}

func TestRecordRefusesUnderCI(t *testing.T) {
	out := t.TempDir()
	path := harness.Path(out, "deepseek", "missing-echo")
	tests := []struct {
		reason string
		ci     string
		force  bool
		code   int
		stderr string
	}{
		{"CI=true refuses", "true", false, exitUsage, "refusing to record under CI (CI=true): recording spends provider requests and rewrites cassettes; pass --force to record anyway"},
		{"CI=1 refuses too", "1", false, exitUsage, "refusing to record under CI (CI=1)"},
		{"--force records under CI", "true", true, exitOK, ""},
		{"outside CI it records", "", false, exitOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			t.Setenv("CI", tt.ci)
			os.RemoveAll(filepath.Dir(path))
			args := recordArgs(out, "--simulate", "--seed", "ci")
			if tt.force {
				args = append(args, "--force")
			}
			r := runMain(t, "", args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.stderr) {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit %d and %q", r.code, r.stderr, tt.code, tt.stderr)
			}
			_, err := os.Stat(path)
			if written := err == nil; written != (tt.code == exitOK) {
				t.Errorf("cassette written: %v, want %v", written, tt.code == exitOK)
			}
		})
	}
}

// TestRecordProvenance checks that the answering endpoint decides the
// provenance: a simulator's header gives simulated (its profile and
// version), anything else recorded (date and base URL host), never both.
func TestRecordProvenance(t *testing.T) {
	t.Setenv("CI", "")
	_, profiles := loadRepo(t)
	s, err := sim.New(profiles["deepseek"], sim.Options{Seed: "p"})
	if err != nil {
		t.Fatal(err)
	}
	live := httptest.NewServer(liveProvider(t, "deepseek", "p"))
	defer live.Close()
	other, err := sim.New(profiles["kimi"], sim.Options{Seed: "p"})
	if err != nil {
		t.Fatal(err)
	}
	wrong := httptest.NewServer(other)
	defer wrong.Close()
	simulated := httptest.NewServer(s)
	defer simulated.Close()

	today := time.Now().UTC().Format(time.DateOnly)
	tests := []struct {
		reason string
		args   []string
		want   harness.Provenance
		stderr string
	}{
		{"--simulate is simulated", []string{"--simulate"},
			harness.Provenance{Kind: harness.Simulated, Target: "deepseek", Scenario: "missing-echo", Profile: "deepseek", ProfileVersion: profiles["deepseek"].Version}, ""},
		{"a simulator behind --base-url is simulated", []string{"--base-url", simulated.URL, "--no-key"},
			harness.Provenance{Kind: harness.Simulated, Target: "deepseek", Scenario: "missing-echo", Profile: "deepseek", ProfileVersion: profiles["deepseek"].Version}, ""},
		{"an endpoint without the simulator header is recorded, with the --base-url host", []string{"--base-url", live.URL + "/v1", "--no-key"},
			harness.Provenance{Kind: harness.Recorded, Target: "deepseek", Scenario: "missing-echo", Date: today, Host: "127.0.0.1"}, ""},
		{"a simulator of another profile is refused", []string{"--base-url", wrong.URL, "--no-key"},
			harness.Provenance{}, `deepseek/missing-echo: the simulator at ` + wrong.URL + ` simulates profile "kimi", but the target's profile is "deepseek"; nothing written`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			out := t.TempDir()
			r := runMain(t, "", recordArgs(out, tt.args...)...)
			path := harness.Path(out, "deepseek", "missing-echo")
			if tt.stderr != "" {
				if r.code != exitHarness || !strings.Contains(r.stderr, tt.stderr) {
					t.Errorf("exit %d, stderr:\n%s\nwant exit 3 and %q", r.code, r.stderr, tt.stderr)
				}
				if _, err := os.Stat(path); err == nil {
					t.Error("a refused recording was written")
				}
				return
			}
			if r.code != 0 {
				t.Fatalf("exit %d:\n%s", r.code, r.stderr)
			}
			f, err := harness.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if f.Provenance != tt.want {
				t.Errorf("provenance %+v, want %+v", f.Provenance, tt.want)
			}
			if want := "wrote " + path + " (" + tt.want.Kind; !strings.HasPrefix(r.stdout, want) || strings.Count(r.stdout, "\n") != 1 {
				t.Errorf("stdout %q, want one line starting %q", r.stdout, want)
			}
		})
	}
}

// TestRecordSeedReproduces checks what make cassettes relies on: the same
// seed records the same bytes, another seed other signatures.
func TestRecordSeedReproduces(t *testing.T) {
	t.Setenv("CI", "")
	read := func(seed string) string {
		out := t.TempDir()
		args := []string{"record", "--matrix", repoMatrix, "--providers", repoProviders,
			"--target", "anthropic", "--scenario", "signed-roundtrip", "--out", out, "--simulate", "--seed", seed}
		if r := runMain(t, "", args...); r.code != 0 {
			t.Fatalf("exit %d:\n%s", r.code, r.stderr)
		}
		return mustRead(t, harness.Path(out, "anthropic", "signed-roundtrip"))
	}
	a, b, c := read("one"), read("one"), read("two")
	if a != b {
		t.Error("the same seed recorded different cassettes")
	}
	if a == c {
		t.Error("another seed recorded the same signatures")
	}
}

// TestRecordSimulatorMismatchNamesTheURL is the finding: a target whose
// own base URL is a simulator of another profile (no --base-url, no
// --simulate) was refused with "the simulator at  simulates profile …",
// its URL lost. The message names the URL the requests went to.
func TestRecordSimulatorMismatchNamesTheURL(t *testing.T) {
	t.Setenv("CI", "")
	t.Setenv("REPLAYCHECK_TEST_KEY", fakeKey)
	_, profiles := loadRepo(t)
	other, err := sim.New(profiles["kimi"], sim.Options{Seed: "p"})
	if err != nil {
		t.Fatal(err)
	}
	wrong := httptest.NewServer(other)
	defer wrong.Close()
	table := mustRead(t, repoMatrix)
	own := `base_url: "https://api.deepseek.com/v1", model: deepseek-v4-flash, profile: deepseek`
	if strings.Count(table, own) != 1 {
		t.Fatalf("%s no longer holds the deepseek target as %q", repoMatrix, own)
	}
	matrixPath := filepath.Join(t.TempDir(), "matrix.yaml")
	if err := os.WriteFile(matrixPath, []byte(strings.Replace(table, own, strings.Replace(own, "https://api.deepseek.com", wrong.URL, 1), 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	r := runMain(t, "", "record", "--matrix", matrixPath, "--providers", repoProviders, "--target", "deepseek",
		"--scenario", "missing-echo", "--out", out, "--key-env", "REPLAYCHECK_TEST_KEY")
	want := `deepseek/missing-echo: the simulator at ` + wrong.URL + `/v1 simulates profile "kimi", but the target's profile is "deepseek"; nothing written`
	if r.code != exitHarness || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 3 and %q", r.code, r.stderr, want)
	}
	if _, err := os.Stat(harness.Path(out, "deepseek", "missing-echo")); err == nil {
		t.Error("a refused recording was written")
	}
}
