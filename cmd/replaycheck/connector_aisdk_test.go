//go:build connectors

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/report"
)

// The shipped connectors run a real library in a process of its own, so they
// run under the connectors build tag: `make test-connectors`, which .ci/run
// runs after `make connectors` installs their pinned packages.

// aisdkEngine is the command line of the Vercel AI SDK connector, or a skip
// when node or its installed packages are missing.
func aisdkEngine(t *testing.T) (engine, expect string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("node is not on PATH: the AI SDK connector needs Node 20 (%v)", err)
	}
	dir, err := filepath.Abs("../../connectors/ai-sdk")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "ai", "package.json")); err != nil {
		t.Skipf("connectors/ai-sdk: the pinned packages are not installed (run make connectors): %v", err)
	}
	return node + " " + filepath.Join(dir, "connector.mjs"), filepath.Join(dir, "expect.yaml")
}

// TestConnectorAISDK runs the whole matrix through the AI SDK connector
// against its committed expectations: exit 0, no error and no unverified
// cell, and a handful of library defects failing for their cause.
func TestConnectorAISDK(t *testing.T) {
	engine, expect := aisdkEngine(t)
	r := runMain(t, "", committedRunArgs("--engine", engine, "--engine-timeout", "60s", "--expect", expect)...)
	if r.code != 0 {
		t.Fatalf("exit %d with the committed expectations, want 0; stderr:\n%s", r.code, r.stderr)
	}
	m := decodeMatrix(t, r.stdout)
	if m.Implementation == nil || !strings.HasPrefix(m.Implementation.Name, "vercel-ai-sdk") {
		t.Errorf("implementation %+v, want vercel-ai-sdk", m.Implementation)
	}
	counts := map[report.Status]int{}
	for _, c := range m.Cells {
		counts[c.Status]++
		if c.Status == report.StatusError || c.Status == report.StatusUnverified {
			t.Errorf("%s/%s is %s: %s", c.Target, c.Scenario, c.Status, c.Detail)
		}
	}
	if counts[report.StatusPass] == 0 || counts[report.StatusKnownFail] == 0 {
		t.Errorf("counts %v: want passes and expected failures", counts)
	}
	// Each library defect fails for its own cause: the provider's words or
	// the invariant the SDK broke.
	for id, cause := range map[string]string{
		"gemini-openai/carriers":                  "missing a thought_signature",         // vercel/ai#18962
		"openai-responses/carriers":               "without its required following item", // vercel/ai#7099, #8379
		"bedrock-converse-claude-legacy/carriers": "cannot contain reasoning content",    // vercel/ai#7034
		"openrouter-deepseek/missing-echo":        "reasoning_content",                   // inspect_ai#4079
		"deepseek/missing-echo":                   "must be passed back",                 // "" refused on V4
	} {
		target, sc, _ := strings.Cut(id, "/")
		c, ok := m.Cell(target, sc)
		if !ok {
			t.Errorf("%s: no cell", id)
			continue
		}
		if c.Status != report.StatusKnownFail {
			t.Errorf("%s = %s (%s), want known-fail", id, c.Status, c.Detail)
		}
		if !strings.Contains(c.ProviderError+c.Detail+c.Actual, cause) {
			t.Errorf("%s fails for another cause: %s %s, want %q", id, c.Detail, c.ProviderError, cause)
		}
	}
	// A route the SDK replays correctly passes: signed Claude thinking.
	for _, id := range []string{"anthropic/signed-roundtrip", "bedrock-converse-openai/signed-roundtrip", "gemini/carriers"} {
		target, sc, _ := strings.Cut(id, "/")
		if c, _ := m.Cell(target, sc); c.Status != report.StatusPass {
			t.Errorf("%s = %s (%s), want pass", id, c.Status, c.Detail)
		}
	}
}
