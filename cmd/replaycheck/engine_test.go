package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in     string
		want   []string
		err    string
		reason string
	}{
		{"python3 connector.py", []string{"python3", "connector.py"}, "", "blanks separate words"},
		{"  node  dist/c.js\t--x ", []string{"node", "dist/c.js", "--x"}, "", "runs of blanks and tabs count once"},
		{`python3 "my agent/c.py" 'a b'`, []string{"python3", "my agent/c.py", "a b"}, "", "quotes keep blanks"},
		{`a "say \"hi\" \\ \x"`, []string{"a", `say "hi" \ \x`}, "", `double quotes take \" and \\, keep other backslashes`},
		{`a\ b c`, []string{"a b", "c"}, "", "a backslash keeps the next character"},
		{`a ''`, []string{"a", ""}, "", "empty quotes are an empty word"},
		{`a "b`, nil, `unterminated " at offset 2`, "an open double quote is an error"},
		{`a 'b`, nil, `unterminated ' at offset 2`, "an open single quote is an error"},
		{`a\`, nil, "a backslash ends the command", "a trailing backslash is an error"},
		{"   ", nil, "empty command", "an empty command is an error"},
	}
	for _, tc := range tests {
		got, err := splitCommand(tc.in)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("%s: %q: got error %v, want %q", tc.reason, tc.in, err, tc.err)
		case tc.err == "" && (err != nil || !cmp.Equal(got, tc.want)):
			t.Errorf("%s: %q: got %q, %v, want %q", tc.reason, tc.in, got, err, tc.want)
		}
	}
}

// committedRunArgs are the arguments of `run --format json` over the
// committed matrix, plus extra.
func committedRunArgs(extra ...string) []string {
	return append([]string{"run", "--matrix", repoMatrix, "--providers", repoProviders, "--cassettes", repoCassettes, "--format", "json"}, extra...)
}

// TestRunThroughConnectorEqualsRun is the protocol's equality proof: the
// whole committed matrix run through the real binary's connector, over
// the protocol, equals the in-process run cell for cell (status,
// provenance, detail, expected, actual, provider error, cassette) and
// names the same implementation.
func TestRunThroughConnectorEqualsRun(t *testing.T) {
	t.Parallel()
	run := committedRun(t)
	inProcess := result{code: run.code, stdout: run.matrix, stderr: run.stderr}
	if inProcess.code == exitUsage || inProcess.code == exitHarness {
		t.Fatalf("run: exit %d: %s", inProcess.code, inProcess.stderr)
	}
	connector := binary + " connector --matrix " + repoMatrix
	// The reference engine over the protocol is judged by the reference
	// table's declarations: matrix.yaml lends them as expectations.
	over := runBinary(t, testEnv(t), committedRunArgs("--engine", connector, "--expect", repoMatrix)...)
	if over.code != inProcess.code {
		t.Errorf("run --engine exits %d, run %d; stderr:\n%s", over.code, inProcess.code, over.stderr)
	}
	want, got := decodeMatrix(t, inProcess.stdout), decodeMatrix(t, over.stdout)
	// The quality curve and the alias rows are the reference engine's own
	// (an alias replays through it): a run over the protocol has neither.
	if want.Curve == nil || got.Curve != nil || want.Aliases == nil || got.Aliases != nil {
		t.Errorf("the in-process run must carry the curve (%v) and the aliases (%v), the run over the protocol neither (%v, %v)",
			want.Curve != nil, want.Aliases != nil, got.Curve != nil, got.Aliases != nil)
	}
	want.Curve, want.Aliases = nil, nil
	if len(want.Cells) == 0 || len(want.Cells) != len(want.Targets)*len(want.Scenarios) {
		t.Errorf("the run printed %d cells: this test compares the whole matrix", len(want.Cells))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the matrix through the connector differs from run (-run +connector):\n%s", diff)
	}
	var b bytes.Buffer
	if err := report.WriteJSON(&b, want); err != nil {
		t.Fatal(err)
	}
	if over.stdout != b.String() {
		t.Error("the JSON reports differ byte for byte (the curve and the aliases aside)")
	}
}

func decodeMatrix(t *testing.T, out string) *report.Matrix {
	t.Helper()
	m, err := report.ReadJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return m
}

// TestRunEngineUsage: a bad --engine is a usage error (exit 2), an
// implementation that cannot start or say hello a harness error (exit 3).
func TestRunEngineUsage(t *testing.T) {
	tests := []struct {
		engine []string
		code   int
		want   string
		reason string
	}{
		{[]string{"--engine", `python3 "connector.py`}, exitUsage, `--engine "python3 \"connector.py": unterminated " at offset 8`, "an open quote is a usage error"},
		{[]string{"--engine", "x", "--engine-timeout", "0s"}, exitUsage, "--engine-timeout 0s: want a positive duration", "the timeout is positive"},
		{[]string{"--engine", "/nonexistent/connector"}, exitHarness, "engine protocol: start /nonexistent/connector", "a command that does not start"},
		{[]string{"--engine", binary + " connector --matrix /nonexistent.yaml"}, exitHarness, "engine protocol: hello request 1: the implementation closed its output before answering (exit status 3); stderr: replaycheck connector:",
			"a connector that dies before hello names the step and quotes its stderr"},
	}
	for _, tc := range tests {
		r := runMain(t, "", committedRunArgs(tc.engine...)...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant exit %d and %q", tc.reason, r.code, r.stderr, tc.code, tc.want)
		}
	}
}

// TestRunPythonConnector runs the example Python connector over the
// committed cassettes, without expectations, and checks what the example
// should show: it passes where its small route table is right, fails where it deliberately knows
// less than the reference engine (no vendor keep-thinking flags, no
// private native fields), is n/a with the reason for every other api mode
// and for compaction, which it does not implement.
func TestRunPythonConnector(t *testing.T) {
	t.Parallel()
	eng, _ := pythonExample(t)
	r := runMain(t, "", committedRunArgs("--engine", eng)...)
	if r.code != exitFailures {
		t.Fatalf("exit %d (want 1: the example has failing cells); stderr:\n%s", r.code, r.stderr)
	}
	m := decodeMatrix(t, r.stdout)
	if want := (report.Implementation{Name: "python-replay-example", Version: "0.1.0", Language: "python", Homepage: "examples/python-connector"}); m.Implementation == nil || *m.Implementation != want {
		t.Errorf("the matrix names %v, want %v", m.Implementation, want)
	}
	const noCompaction = "python-replay-example does not support the estimate step: the example does not compact; wire your agent's token estimate and compaction here"
	tests := []struct {
		cell   string
		status report.Status
		detail string // a substring of the cell's detail
		reason string
	}{
		{"deepseek/missing-echo", report.StatusPass, "sent reasoning_content", "must-echo: the bare tool turn is padded"},
		{"kimi/carriers", report.StatusPass, "sent reasoning_content", "kimi is must-echo by host"},
		{"mistral/strict-schema", report.StatusPass, "sent no reasoning key", "strict: no reasoning key at all"},
		{"mistral/fallback", report.StatusPass, "learnt reasoning_content,reasoning,reasoning_details from the refusal and retried once", "the stale row's refusal is learnt, persisted and not relearnt"},
		{"cerebras/carriers", report.StatusFail, "undeclared advisory: the route sends no reasoning key; the provider is recorded accepting and reading reasoning as well", "strict Cerebras reads reasoning: advisory, and matrix.yaml's declaration is the reference table's"},
		{"openrouter/signed-roundtrip", report.StatusPass, "opaque values replayed byte for byte", "reasoning_details items go back verbatim"},
		{"minimax/carriers", report.StatusFail, "undeclared advisory: the route sends no reasoning key; the provider is recorded accepting and reading reasoning_details as well", "the example's default row sends less than MiniMax reads, and no advisories: declaration says why"},
		{"llama-cpp/resume", report.StatusPass, "byte-identical", "the example's JSON store reloads identically"},
		{"nous-portal/branch", report.StatusPass, "", "a branch shapes like its parent"},
		{"glm/flags", report.StatusFail, "the answer to the second question", "deliberate gap: no vendor keep-thinking flags"},
		{"kimi/flags", report.StatusFail, "the answer to the second question", "deliberate gap: no vendor keep-thinking flags"},
		{"gemini-openai/carriers", report.StatusFail, "the provider refused the request (400)", "deliberate gap: the Gemini thought signature is not replayed"},
		{"copilot/signed-roundtrip", report.StatusFail, "the replayed request", "deliberate gap: Copilot's reasoning_opaque is not replayed"},
		{"sambanova/fallback", report.StatusFail, "the provider refused the request (400)", "matrix.yaml's known failures are the reference table's: none applies to an engine"},
		{"deepseek/compaction", report.StatusNA, noCompaction, "an unsupported step is n/a with the implementation's reason"},
		{"anthropic/carriers", report.StatusNA, "python-replay-example does not support api mode anthropic (it supports chat)", "other api modes are n/a"},
		{"gemini/signed-roundtrip", report.StatusNA, "python-replay-example does not support api mode gemini", "other api modes are n/a"},
		{"bedrock-converse-claude/resume", report.StatusNA, "does not support api mode bedrock-converse", "other api modes are n/a"},
	}
	for _, tc := range tests {
		target, scenario, _ := strings.Cut(tc.cell, "/")
		c, ok := m.Cell(target, scenario)
		if !ok {
			t.Errorf("%s: no cell %s", tc.reason, tc.cell)
			continue
		}
		if c.Status != tc.status || !strings.Contains(c.Detail, tc.detail) {
			t.Errorf("%s: %s = %s (%s), want %s with %q", tc.reason, tc.cell, c.Status, c.Detail, tc.status, tc.detail)
		}
	}
	// Every failing cell is one of the example's deliberate gaps, and
	// every cell of another api mode is n/a: targets added later keep this.
	gaps := map[string]string{
		"kimi/flags": "no vendor flags", "glm/flags": "no vendor flags", "dashscope/flags": "no vendor flags", "fireworks/flags": "no vendor flags (as the reference)",
		"gemini-openai/carriers": "no thought signature", "gemini-openai/signed-roundtrip": "no thought signature",
		"gemini-openai/resume": "no thought signature", "gemini-openai/compaction": "no thought signature",
		"gemini-openai/branch": "no thought signature", "copilot/signed-roundtrip": "no reasoning_opaque",
		"vertex-gemini-openai/carriers": "no thought signature", "vertex-gemini-openai/signed-roundtrip": "no thought signature",
		"vertex-gemini-openai/resume": "no thought signature", "vertex-gemini-openai/compaction": "no thought signature",
		"vertex-gemini-openai/branch": "no thought signature",
		// Its default row sends reasoning_content alone where the provider
		// reads another carrier too: reasoning lost, undeclared.
		"minimax/carriers": "sends less than MiniMax reads", "ollama-cloud/carriers": "sends less than Ollama Cloud reads",
		"upstage/carriers": "sends less than Upstage reads",
		// The reference table's own failures, which the example's small
		// table shares; matrix.yaml declares them for the reference only.
		"sambanova/fallback": "as the reference", "hunyuan/fallback": "as the reference", "cerebras/carriers": "as the reference",
		"groq/carriers": "as the reference", "gemini-openai/strict-schema": "as the reference", "gemini-openai/fallback": "as the reference",
		"vercel-ai-gateway-deepseek/missing-echo": "as the reference",
	}
	mf, err := matrix.Load(repoMatrix)
	if err != nil {
		t.Fatal(err)
	}
	modes := map[string]engine.APIMode{}
	for _, target := range mf.Targets {
		modes[target.ID] = target.Route.APIMode
	}
	for _, c := range m.Cells {
		_, gap := gaps[c.ID()]
		switch {
		case c.Status == report.StatusUnverified:
			t.Errorf("%s is unverified (%s): the example sent a request no cassette recorded", c.ID(), c.Detail)
		case (c.Status == report.StatusFail) != gap:
			t.Errorf("%s = %s (%s): the failing cells must be the example's deliberate gaps", c.ID(), c.Status, c.Detail)
		case modes[c.Target] != engine.ModeChat && c.Status != report.StatusNA:
			t.Errorf("%s = %s (%s): the example shapes chat only", c.ID(), c.Status, c.Detail)
		}
	}
}

// TestRunPythonConnectorExpectations judges the Python example against its
// committed expectations file: every cell it fails or leaves advisory is
// expected, so the run exits 0 with each reason in the cell. The file
// written by --write-expect holds the same cells and causes, and an
// expectations file that lacks a failing cell, or expects a passing one,
// fails the run naming the cell.
func TestRunPythonConnectorExpectations(t *testing.T) {
	t.Parallel()
	eng, committed := pythonExample(t)
	r := runMain(t, "", committedRunArgs("--engine", eng, "--expect", committed)...)
	if r.code != 0 {
		t.Fatalf("exit %d with the committed expectations, want 0; stderr:\n%s", r.code, r.stderr)
	}
	m := decodeMatrix(t, r.stdout)
	for id, want := range map[string]report.Status{"sambanova/fallback": report.StatusKnownFail, "kimi/flags": report.StatusKnownFail, "cerebras/carriers": report.StatusAdvisory} {
		target, sc, _ := strings.Cut(id, "/")
		if c, _ := m.Cell(target, sc); c.Status != want {
			t.Errorf("%s = %s (%s), want %s by the expectations", id, c.Status, c.Detail, want)
		}
	}

	written := filepath.Join(t.TempDir(), "expect.yaml")
	r = runMain(t, "", committedRunArgs("--engine", eng, "--write-expect", written)...)
	if r.code != 0 || !strings.Contains(r.stderr, "wrote "+written+": 20 expected failures, 5 expected advisories") {
		t.Fatalf("--write-expect: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	mf, err := matrix.Load(repoMatrix)
	if err != nil {
		t.Fatal(err)
	}
	got, err := matrix.LoadExpectations(written, mf)
	if err != nil {
		t.Fatal(err)
	}
	want, err := matrix.LoadExpectations(committed, mf)
	if err != nil {
		t.Fatal(err)
	}
	cells := func(e *matrix.Expectations) (out []string) {
		for _, k := range e.KnownFailures {
			out = append(out, k.Target+"/"+k.Scenario+" "+k.Cause)
		}
		for _, k := range e.Advisories {
			out = append(out, k.Target+"/"+k.Scenario+" advisory")
		}
		return out
	}
	if g, w := cells(got), cells(want); !slices.Equal(g, w) {
		t.Errorf("--write-expect wrote\n%s\nwant the committed cells\n%s", strings.Join(g, "\n"), strings.Join(w, "\n"))
	}

	b, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(t.TempDir(), "edited.yaml")
	text := strings.Replace(string(b), "  - target: kimi\n    scenario: flags\n", "  - target: kimi\n    scenario: carriers\n", 1)
	if err := os.WriteFile(edited, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runMain(t, "", committedRunArgs("--engine", eng, "--expect", edited)...)
	if r.code != exitFailures {
		t.Fatalf("an edited expectations file: exit %d, want 1", r.code)
	}
	m = decodeMatrix(t, r.stdout)
	if c, _ := m.Cell("kimi", "flags"); c.Status != report.StatusFail {
		t.Errorf("kimi/flags no longer expected = %s (%s), want fail", c.Status, c.Detail)
	}
	if c, _ := m.Cell("kimi", "carriers"); c.Status != report.StatusFail || !strings.Contains(c.Detail, "declared as a known failure in edited.yaml:") || !strings.Contains(c.Detail, "passes now") {
		t.Errorf("kimi/carriers expected but passing = %s (%s), want fail naming edited.yaml", c.Status, c.Detail)
	}
}

// pythonExample returns the command that runs the Python connector example
// and the path of its expectations file, or skips without python3.
func pythonExample(t *testing.T) (engine, expect string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH: the Python connector example is not checked")
	}
	connector, err := filepath.Abs("../../examples/python-connector/connector.py")
	if err != nil {
		t.Fatal(err)
	}
	if expect, err = filepath.Abs("../../examples/python-connector/expect.yaml"); err != nil {
		t.Fatal(err)
	}
	return python + " " + connector, expect
}
