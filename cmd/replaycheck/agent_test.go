package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/replaycheck/replaycheck/report"
)

var (
	goAgentOnce sync.Once
	goAgentPath string
	goAgentErr  error
)

// goAgent builds examples/agents/go once for the package's tests.
func goAgent(t *testing.T) string {
	t.Helper()
	goAgentOnce.Do(func() {
		dir, err := os.MkdirTemp("", "replaycheck-go-agent-*")
		if err != nil {
			goAgentErr = err
			return
		}
		cleanups = append(cleanups, func() { os.RemoveAll(dir) })
		goAgentPath = filepath.Join(dir, "go-agent")
		out, err := exec.Command("go", "build", "-o", goAgentPath, "../../examples/agents/go").CombinedOutput()
		if err != nil {
			goAgentErr = err
			goAgentPath = string(out)
		}
	})
	if goAgentErr != nil {
		t.Fatalf("go build examples/agents/go: %v\n%s", goAgentErr, goAgentPath)
	}
	return goAgentPath
}

// agentTargets are the chat targets the example agents are judged on:
// must-echo, strict, signed (Gemini's and Copilot's tool-call signatures,
// OpenRouter's signed reasoning_details) and a keep-thinking flag.
var agentTargets = "deepseek,mistral,gemini-openai,openrouter,copilot,glm"

// agentScenarios are the columns an agent run plays.
var agentScenarios = "carriers,missing-echo,strict-schema,fallback,signed-roundtrip,flags"

// agentRow runs replaycheck agent with --format json and returns the
// cells by "target/scenario", with the exit code.
func agentRow(t *testing.T, targets string, command ...string) (map[string]report.Cell, result) {
	t.Helper()
	return agentRowWith(t, targets, nil, command...)
}

// agentRowWith is agentRow with more flags before the command.
func agentRowWith(t *testing.T, targets string, flags []string, command ...string) (map[string]report.Cell, result) {
	t.Helper()
	args := append([]string{"agent", "--matrix", testMatrix, "--target", targets, "--scenario", agentScenarios, "--format", "json", "--timeout", "30s"}, flags...)
	args = append(append(args, "--"), command...)
	r := runMain(t, "", args...)
	var m report.Matrix
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		t.Fatalf("agent --format json: %v (exit %d)\nstdout:\n%s\nstderr:\n%s", err, r.code, r.stdout, r.stderr)
	}
	cells := map[string]report.Cell{}
	for _, c := range m.Cells {
		cells[c.ID()] = c
	}
	return cells, r
}

// rowCase is one mode of an example agent and the row it must get: each
// cell named in fail fails with the words given, every other judged cell
// passes.
type rowCase struct {
	mode   string
	fail   map[string]string // "target/scenario" -> words its detail must hold
	reason string
	// minJudged is the fewest cells the row must judge (12 when 0).
	minJudged int
}

// exampleRows are the rows of an example agent's modes: the correct mode
// passes everything it is judged on, each "before" mode fails where it
// changes what the provider reads or refuses, in the provider's words.
var exampleRows = []rowCase{
	{mode: "correct", reason: "the route table, the pad, signatures kept, flags sent"},
	{mode: "no-echo", reason: "the seed's before: no reasoning sent back", fail: map[string]string{
		"deepseek/carriers":           "The `reasoning_content` in the thinking mode must be passed back to the API.",
		"deepseek/missing-echo":       "must be passed back to the API",
		"openrouter/carriers":         "undeclared advisory",
		"openrouter/signed-roundtrip": "not echoed byte for byte",
		"copilot/carriers":            "undeclared advisory",
		"copilot/signed-roundtrip":    "not echoed byte for byte",
		"glm/carriers":                "undeclared advisory",
	}},
	{mode: "no-pad", reason: "a bare tool turn goes without reasoning_content", fail: map[string]string{
		"deepseek/missing-echo": "must be passed back to the API",
	}},
	{mode: "empty-pad", reason: `the first fix, "", which DeepSeek V4 refuses too`, fail: map[string]string{
		"deepseek/missing-echo": `carried reasoning_content ""`,
	}},
	{mode: "drop-signatures", reason: "signatures and encrypted values dropped", fail: map[string]string{
		"gemini-openai/carriers":         "thought_signature",
		"gemini-openai/strict-schema":    "thought_signature",
		"gemini-openai/fallback":         "thought_signature",
		"gemini-openai/signed-roundtrip": "thought_signature",
		"openrouter/carriers":            "rule",
		"openrouter/signed-roundtrip":    "rule",
		"copilot/signed-roundtrip":       "reasoning_opaque",
	}},
	{mode: "every-carrier", reason: "every carrier sent to every route", fail: map[string]string{
		"mistral/strict-schema":       "extra_forbidden",
		"mistral/fallback":            "extra_forbidden",
		"gemini-openai/strict-schema": "Unknown name",
		"gemini-openai/fallback":      "Unknown name",
	}},
}

func TestAgentGoExampleRows(t *testing.T) {
	bin := goAgent(t)
	for _, rc := range exampleRows {
		t.Run(rc.mode, func(t *testing.T) {
			cells, r := agentRow(t, agentTargets, bin, "--base-url", "{base_url}", "--model", "{model}", "--provider", "{provider}", "--mode", rc.mode)
			checkRow(t, rc, cells, r)
		})
	}
	// Streamed, the signatures arrive in their own deltas: the agent must
	// still send each back whole.
	for _, rc := range []rowCase{exampleRows[0], exampleRows[4]} {
		t.Run(rc.mode+"-stream", func(t *testing.T) {
			cells, r := agentRow(t, agentTargets, bin, "--base-url", "{base_url}", "--model", "{model}", "--provider", "{provider}", "--mode", rc.mode, "--stream")
			checkRow(t, rc, cells, r)
		})
	}
}

// checkRow holds a row to its case: the named cells fail with their
// words, every other judged cell passes, no cell is an error, and the
// exit code is run's.
func checkRow(t *testing.T, rc rowCase, cells map[string]report.Cell, r result) {
	t.Helper()
	judged := 0
	for id, c := range cells {
		words, shouldFail := rc.fail[id]
		switch {
		case c.Status == report.StatusNA:
			if shouldFail {
				t.Errorf("%s: %s is n/a (%s), want a fail", rc.reason, id, c.Detail)
			}
			continue
		case shouldFail && c.Status != report.StatusFail:
			t.Errorf("%s: %s is %s, want fail: %s", rc.reason, id, c.Status, c.Detail)
		case shouldFail && !strings.Contains(c.Detail+c.ProviderError, words):
			t.Errorf("%s: %s fails without %q: %s", rc.reason, id, words, c.Detail)
		case !shouldFail && c.Status != report.StatusPass:
			t.Errorf("%s: %s is %s, want pass: %s", rc.reason, id, c.Status, c.Detail)
		}
		if c.Provenance != report.ProvenanceAgent {
			t.Errorf("%s: provenance %q", id, c.Provenance)
		}
		judged++
	}
	if judged < max(rc.minJudged, 1) || rc.minJudged == 0 && judged < 12 {
		t.Errorf("%s: only %d cells judged", rc.reason, judged)
	}
	want := 0
	if len(rc.fail) > 0 {
		want = 1
	}
	if r.code != want {
		t.Errorf("%s: exit %d, want %d; stderr:\n%s", rc.reason, r.code, want, r.stderr)
	}
}

func TestAgentFallbackLearnsOnceOrLoops(t *testing.T) {
	bin := goAgent(t)
	// Told no provider, the agent's table cannot know Mistral is strict at
	// a loopback URL: it sends reasoning_content back, is refused, and the
	// correct mode learns it and retries once; the retry loop resends it.
	for _, c := range []struct {
		mode, fallback string
	}{{"correct", "pass"}, {"retry-loop", "fail"}} {
		cells, _ := agentRow(t, "mistral", bin, "--base-url", "{base_url}", "--model", "{model}", "--mode", c.mode)
		got := cells["mistral/fallback"]
		if string(got.Status) != c.fallback {
			t.Errorf("%s: mistral/fallback %s, want %s: %s", c.mode, got.Status, c.fallback, got.Detail)
		}
		if !strings.Contains(got.Detail, "extra_forbidden") {
			t.Errorf("%s: the detail does not quote Mistral's refusal: %s", c.mode, got.Detail)
		}
		if s := cells["mistral/strict-schema"]; s.Status != report.StatusFail {
			t.Errorf("%s: mistral/strict-schema %s, want fail (the table does not know the route)", c.mode, s.Status)
		}
	}
}

// TestAgentResume plays resume with the agent's own resume command: the
// correct agent saves its session whole and its resumed request replays
// the live one; the seed's "before" (a session store that drops the
// reasoning carriers) fails, naming the carrier the resumed turn lost; and
// without --resume-cmd the column is n/a, saying how to play it.
func TestAgentResume(t *testing.T) {
	bin := goAgent(t)
	for _, c := range []struct {
		mode, status, detail string
	}{
		{"correct", "pass", "replays the live request's 3 messages as sent"},
		{"store-no-reasoning", "fail", "sends messages.1 otherwise than the live request"},
	} {
		resume := bin + " --provider {provider} --session s.json --resume --mode " + c.mode + " 'And the next step?'"
		cells, _ := agentRowWith(t, "deepseek", []string{"--scenario", "resume", "--resume-cmd", resume},
			bin, "--provider", "{provider}", "--session", "s.json", "--mode", c.mode)
		got := cells["deepseek/resume"]
		if string(got.Status) != c.status || !strings.Contains(got.Detail, c.detail) {
			t.Errorf("%s: deepseek/resume %s (%s), want %s with %q", c.mode, got.Status, got.Detail, c.status, c.detail)
		}
		if c.status == "fail" && (!strings.Contains(got.Expected, "reasoning_content: \"Reasoning") || got.Verdict != report.VerdictInvariant) {
			t.Errorf("%s: the failure names no lost reasoning_content: expected %q, verdict %q", c.mode, got.Expected, got.Verdict)
		}
	}
	cells, _ := agentRowWith(t, "deepseek", []string{"--scenario", "resume,compaction"}, bin, "--provider", "{provider}")
	if got := cells["deepseek/resume"]; got.Status != report.StatusNA || !strings.Contains(got.Detail, "--resume-cmd") {
		t.Errorf("without --resume-cmd: deepseek/resume %s (%s), want n/a naming --resume-cmd", got.Status, got.Detail)
	}
	if got := cells["deepseek/compaction"]; got.Status != report.StatusNA || !strings.Contains(got.Detail, "--compact-cmd") {
		t.Errorf("without --compact-cmd: deepseek/compaction %s (%s), want n/a naming --compact-cmd", got.Status, got.Detail)
	}
}

// TestAgentCompaction plays compaction with the agent's own compact
// command: the correct agent keeps the turn it keeps as it was sent live;
// the seed's "before" (a compaction that strips the kept turns' reasoning)
// fails on DeepSeek, naming the carrier, and passes on Mistral, whose strict
// route never carried any.
func TestAgentCompaction(t *testing.T) {
	bin := goAgent(t)
	for _, c := range []struct{ mode, deepseek string }{{"correct", "pass"}, {"compact-strips-reasoning", "fail"}} {
		compact := bin + " --provider {provider} --session s.json --compact --mode " + c.mode + " 'And the next step?'"
		cells, _ := agentRowWith(t, "deepseek,mistral", []string{"--scenario", "compaction", "--compact-cmd", compact},
			bin, "--provider", "{provider}", "--session", "s.json", "--mode", c.mode)
		if got := cells["deepseek/compaction"]; string(got.Status) != c.deepseek || (c.deepseek == "fail" && !strings.Contains(got.Expected, "reasoning_content: \"Reasoning")) {
			t.Errorf("%s: deepseek/compaction %s (%s; expected %q), want %s", c.mode, got.Status, got.Detail, got.Expected, c.deepseek)
		}
		if got := cells["mistral/compaction"]; got.Status != report.StatusPass {
			t.Errorf("%s: mistral/compaction %s (%s), want pass", c.mode, got.Status, got.Detail)
		}
	}
}

func TestAgentUsage(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"agent", "--target", "deepseek"}, "missing the agent's command: put it after --"},
		{[]string{"agent", "--", "true"}, "missing required --target"},
		{[]string{"agent", "--target", "nosuch", "--", "true"}, `--target "nosuch": no such target`},
		{[]string{"agent", "--target", "deepseek~1", "--", "true"}, "an alias has no simulator of its own"},
		{[]string{"agent", "--target", "deepseek", "--args", "[1]", "--", "true"}, `--args "[1]": not a JSON object`},
		{[]string{"agent", "--target", "deepseek", "--format", "yaml", "--", "true"}, `unknown format`},
	}
	for _, c := range cases {
		r := runMain(t, "", append([]string{c.args[0], "--matrix", testMatrix}, c.args[1:]...)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
}

// hostRouted are targets an agent told no provider can recognise only by
// their hostname: neither their provider id nor their model names them.
const hostRouted = "mistral,gemini-openai"

// checkIntercept holds an agent that decides routes by hostname to its
// rows: at the simulator's loopback URL it cannot know these routes are
// strict and fails strict-schema in their words; with --intercept it is
// given their own URLs, reaches them through the run's proxy and CA, and
// passes.
func checkIntercept(t *testing.T, flags []string, command ...string) {
	t.Helper()
	plain, _ := agentRowWith(t, hostRouted, flags, command...)
	for _, id := range []string{"mistral/strict-schema", "gemini-openai/strict-schema"} {
		if c := plain[id]; c.Status != report.StatusFail {
			t.Errorf("at a loopback URL %s is %s, want fail (the agent cannot tell the route): %s", id, c.Status, c.Detail)
		}
	}
	routed, r := agentRowWith(t, hostRouted, append([]string{"--intercept"}, flags...), command...)
	allJudgedPass(t, "--intercept", routed, r, 5)
}

func TestAgentGoExampleIntercept(t *testing.T) {
	checkIntercept(t, nil, goAgent(t), "--base-url", "{base_url}", "--model", "{model}")
}

// TestAgentREADMERow holds the README's failing row to what the command
// prints: the Go example agent in its no-pad mode.
func TestAgentREADMERow(t *testing.T) {
	r := runMain(t, "", "agent", "--matrix", testMatrix, "--target", "deepseek", "--target", "mistral", "--",
		goAgent(t), "--base-url", "{base_url}", "--model", "{model}", "--provider", "{provider}", "--mode", "no-pad")
	if r.code != exitFailures {
		t.Fatalf("exit %d, want 1; stderr:\n%s", r.code, r.stderr)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```text\n"+r.stdout+"```") {
		t.Errorf("README.md's failing row is not what replaycheck agent prints now:\n%s", r.stdout)
	}
}

// allJudgedPass wants every judged cell of a run passed, at least atLeast
// of them, and the run's exit 0.
func allJudgedPass(t *testing.T, what string, cells map[string]report.Cell, r result, atLeast int) {
	t.Helper()
	judged := 0
	for id, c := range cells {
		if c.Status == report.StatusNA {
			continue
		}
		judged++
		if c.Status != report.StatusPass {
			t.Errorf("%s: %s is %s, want pass: %s", what, id, c.Status, c.Detail)
		}
	}
	if judged < atLeast || r.code != 0 {
		t.Errorf("%s: %d cells judged, exit %d; stderr:\n%s", what, judged, r.code, r.stderr)
	}
}
