package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGateOverAnEngine is the gate for an agent whose route table is code:
// the Python example held to its expectations passes; with an expectation
// removed, that cell regresses in the provider's words; held to a matrix
// it printed before, a cell that passed and fails now regresses and one
// that failed and passes is improved.
func TestGateOverAnEngine(t *testing.T) {
	t.Parallel()
	eng, expect := pythonExample(t)
	gateArgs := func(extra ...string) []string {
		return append([]string{"gate", "--matrix", repoMatrix, "--providers", repoProviders, "--cassettes", repoCassettes, "--engine", eng}, extra...)
	}
	r := runMain(t, "", gateArgs("--baseline", expect)...)
	if r.code != 0 || !strings.Contains(r.stdout, "gate: no cell got worse than "+expect) {
		t.Fatalf("held to its expectations: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	dir := t.TempDir()
	b, err := os.ReadFile(expect)
	if err != nil {
		t.Fatal(err)
	}
	fewer := filepath.Join(dir, "fewer.yaml")
	text := strings.Replace(string(b), "  - target: sambanova\n    scenario: fallback\n", "  - target: hunyuan\n    scenario: carriers\n", 1)
	if err := os.WriteFile(fewer, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runMain(t, "", gateArgs("--baseline", fewer)...)
	for _, want := range []string{
		"REGRESSION  sambanova/fallback: fail\n", "provider error: ", "Extra inputs are not permitted",
		"REGRESSION  hunyuan/carriers: fail\n", "declared as a known failure in fewer.yaml:", "passes now",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("an expectation moved: stdout lacks %q\n%s", want, r.stdout)
		}
	}
	if r.code != exitFailures || !strings.Contains(r.stderr, "2 cells regressed") {
		t.Errorf("an expectation moved: exit %d, stderr %q, want 1 and 2 cells regressed", r.code, r.stderr)
	}

	run := runMain(t, "", committedRunArgs("--engine", eng)...)
	saved := strings.Replace(run.stdout, `"target": "kimi",
      "scenario": "flags",
      "status": "fail"`, `"target": "kimi",
      "scenario": "flags",
      "status": "pass"`, 1)
	saved = strings.Replace(saved, `"target": "deepseek",
      "scenario": "carriers",
      "status": "pass"`, `"target": "deepseek",
      "scenario": "carriers",
      "status": "fail"`, 1)
	if saved == run.stdout {
		t.Fatal("the saved matrix was not edited: its JSON layout changed")
	}
	baseline := filepath.Join(dir, "baseline.json")
	if err := os.WriteFile(baseline, []byte(saved), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runMain(t, "", gateArgs("--baseline", baseline)...)
	if r.code != exitFailures || !strings.Contains(r.stdout, "REGRESSION  kimi/flags: pass -> fail\n") || !strings.Contains(r.stdout, "IMPROVED    deepseek/carriers: fail -> pass\n") {
		t.Errorf("held to a saved matrix: exit %d\n%s", r.code, r.stdout)
	}
	if strings.Count(r.stdout, "REGRESSION") != 1 {
		t.Errorf("only kimi/flags got worse:\n%s", r.stdout)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"gate", "--engine", eng}, "--engine: name the --baseline FILE"},
		{[]string{"gate", "--baseline", expect}, "--baseline holds an --engine implementation"},
		{gateArgs("--baseline", expect, "--base", "HEAD"), "--base, --head and --summary compare two route tables"},
		{gateArgs("--baseline", expect, "--format", "github"), `--format "github" with --engine: want text or json`},
		{gateArgs("--baseline", filepath.Join(dir, "none.yaml")), "--baseline: open "},
	} {
		r := runMain(t, "", tc.args...)
		if r.code == 0 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args[len(tc.args)-2:], r.code, r.stderr, tc.want)
		}
	}
}
