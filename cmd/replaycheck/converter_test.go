package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
)

// TestRunConverterConnector runs the second example connector, which
// differs from the reference engine in harmless, profile-declared ways (no
// tool-result name, content "" on a tool-call turn) and applies its own
// route table while converting. It must be judged on every chat cell it
// takes part in: nothing unverified, every verdict the reference's except
// where it sends other carriers (it does not replay Gemini's and Copilot's
// private native fields), and n/a only where the reference is n/a or where
// a strict row leaves its own table nothing to learn. Under
// --strict-replay the same connector is judged nowhere: every cell it
// takes part in is unverified (the problem the profile-declared matching
// solves).
func TestRunConverterConnector(t *testing.T) {
	t.Parallel()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH: the converter connector example is not checked")
	}
	connector, err := filepath.Abs("../../examples/converter-connector/connector.py")
	if err != nil {
		t.Fatal(err)
	}
	engineCmd := python + " " + connector
	ref := decodeMatrix(t, committedRun(t).matrix)
	// Its route table is the reference table, so are its expected failures:
	// matrix.yaml lends its declarations.
	r := runMain(t, "", committedRunArgs("--engine", engineCmd, "--expect", repoMatrix)...)
	if r.code != exitFailures {
		t.Fatalf("exit %d (want 1: the example does not replay native fields); stderr:\n%s", r.code, r.stderr)
	}
	m := decodeMatrix(t, r.stdout)
	if m.Implementation == nil || m.Implementation.Name != "converter-replay-example" {
		t.Errorf("the matrix names %v", m.Implementation)
	}
	mf, err := matrix.Load(repoMatrix)
	if err != nil {
		t.Fatal(err)
	}
	modes := map[string]engine.APIMode{}
	for _, target := range mf.Targets {
		modes[target.ID] = target.Route.APIMode
	}
	gaps := map[string]bool{
		"gemini-openai/carriers": true, "gemini-openai/signed-roundtrip": true, "gemini-openai/resume": true,
		"gemini-openai/compaction": true, "gemini-openai/branch": true, "copilot/signed-roundtrip": true,
		"vertex-gemini-openai/carriers": true, "vertex-gemini-openai/signed-roundtrip": true, "vertex-gemini-openai/resume": true,
		"vertex-gemini-openai/compaction": true, "vertex-gemini-openai/branch": true,
		// The reference's known failure is pinned to Google refusing
		// `reasoning`; the example's own table sends reasoning_content,
		// which Google refuses too: a failure for another cause.
		"gemini-openai/fallback": true,
	}
	const ownTable = "does not shape the stale row it is handed (it applies its own route table)"
	judged := 0
	for _, c := range m.Cells {
		want, _ := ref.Cell(c.Target, c.Scenario)
		switch {
		case modes[c.Target] != engine.ModeChat:
			if c.Status != report.StatusNA {
				t.Errorf("%s = %s: the example shapes chat only", c.ID(), c.Status)
			}
		case c.Status == report.StatusUnverified || c.Status == report.StatusError:
			t.Errorf("%s = %s (%s): every chat cell must be judged", c.ID(), c.Status, c.Detail)
		case gaps[c.ID()]:
			if c.Status != report.StatusFail {
				t.Errorf("%s = %s (%s): the example's deliberate gap (no native fields) must fail", c.ID(), c.Status, c.Detail)
			}
		case c.Status == report.StatusNA && want.Status != report.StatusNA && !strings.Contains(c.Detail, ownTable):
			t.Errorf("%s = n/a (%s), the reference's is %s", c.ID(), c.Detail, want.Status)
		case c.Status != report.StatusNA && c.Status != want.Status:
			t.Errorf("%s = %s (%s), the reference's is %s (%s)", c.ID(), c.Status, c.Detail, want.Status, want.Detail)
		}
		if modes[c.Target] == engine.ModeChat && c.Status != report.StatusNA {
			judged++
		}
	}
	if judged < 100 {
		t.Errorf("%d chat cells judged, want at least 100", judged)
	}
	tests := []struct {
		cell       string
		status     report.Status
		provenance string
		detail     string
		reason     string
	}{
		{"deepseek/carriers", report.StatusPass, report.ProvenanceSimulated, "declares ignorable: tool_result_name (source: https://platform.openai.com/docs/api-reference/chat/create); tool_call_content",
			"the recorded answer, matched up to the declared differences, each named with its source"},
		{"mimo/carriers", report.StatusPass, report.ProvenanceProfile, "judged by the mimo profile v1: 200, no rule fires",
			`MiMo does not declare content "" harmless: its profile judges the request`},
		{"kimi/flags", report.StatusPass, report.ProvenanceSimulated, "", "its own table sends the keep-thinking flag"},
		{"fireworks/fallback", report.StatusPass, report.ProvenanceSimulated, "the provider drifted to refusing reasoning_content",
			"it learns the drift through its own table, persists it and does not relearn it after resume"},
		{"mistral/fallback", report.StatusNA, "", ownTable, "a strict row leaves its own table nothing to learn"},
		{"groq/carriers", report.StatusAdvisory, report.ProvenanceSimulated, "accepting and reading reasoning as well",
			"the advisory lookup also matches up to declared differences"},
	}
	for _, tc := range tests {
		target, scenario, _ := strings.Cut(tc.cell, "/")
		c, _ := m.Cell(target, scenario)
		if c.Status != tc.status || c.Provenance != tc.provenance || !strings.Contains(c.Detail, tc.detail) {
			t.Errorf("%s: %s = %s (%s) %q, want %s (%s) with %q", tc.reason, tc.cell, c.Status, c.Provenance, c.Detail, tc.status, tc.provenance, tc.detail)
		}
	}

	strict := decodeMatrix(t, runMain(t, "", committedRunArgs("--engine", engineCmd, "--strict-replay")...).stdout)
	for _, c := range strict.Cells {
		if c.Status != report.StatusNA && c.Status != report.StatusUnverified {
			t.Errorf("--strict-replay: %s = %s: exact matching should judge none of this connector's requests", c.ID(), c.Status)
		}
	}
}
