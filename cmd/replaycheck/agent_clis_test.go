//go:build agents

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/replaycheck/replaycheck/report"
)

// Two real agent CLIs from npm, each at a version before and after its
// public DeepSeek fix, installed from the lockfiles under
// examples/agents/clis by `make clis` (.ci/run runs it through
// `make test-agents`), played by replaycheck agent as the deepseek target
// and held to the rows their public history predicts. Both CLIs decide
// their DeepSeek handling by the provider id or the host, so they run
// under --intercept: they are given https://api.deepseek.com/v1 and reach
// the simulator through the run's proxy on loopback. Each gets the run's
// fresh HOME and writes its own configuration there (docs/agent.md, "Agent
// CLIs", shows the same commands).

// cliPrompt is what each CLI is asked: the simulator answers with a call
// to the tool the CLI declares, whatever the prompt.
const cliPrompt = "Read replaycheck.txt and say what it holds."

// deepseekRefusal is DeepSeek's own words for a tool turn sent back
// without its reasoning.
const deepseekRefusal = "The `reasoning_content` in the thinking mode must be passed back to the API."

// A cliCase is one pinned CLI version and the row its history predicts.
type cliCase struct {
	cli, version string
	// command is the CLI's headless command under replaycheck agent; bin
	// is the absolute path of its installed executable.
	command func(bin string) []string
	bin     string // the executable, relative to the version's directory
	flags   []string
	// missingEcho is the words the missing-echo cell's detail must hold,
	// beside DeepSeek's refusal; why is the public history behind it.
	missingEcho, why string
}

// piModels is pi's models.json: the deepseek provider at the target's URL
// (under --intercept, https://api.deepseek.com/v1), a reasoning model.
const piModels = `{"providers":{"deepseek":{"baseUrl":"{base_url}","api":"openai-completions","apiKey":"sk-replaycheck","models":[{"id":"{model}","reasoning":true}]}}}`

// piCommand writes models.json into the run's HOME and runs pi headless.
func piCommand(bin string) []string {
	return []string{"sh", "-c", `mkdir -p "$HOME/.pi/agent" && printf %s "$1" > "$HOME/.pi/agent/models.json" && ` +
		`PI_CODING_AGENT_DIR="$HOME/.pi/agent" PI_OFFLINE=1 exec "$2" -p --no-session --offline --provider deepseek --model {model} --thinking high "$3"`,
		"pi", piModels, bin, cliPrompt}
}

// qwenSettings selects the OpenAI-compatible auth (OPENAI_BASE_URL,
// OPENAI_API_KEY, OPENAI_MODEL come from the run) and turns off the usage
// statistics qwen-code otherwise posts to an Aliyun host (the run refuses
// that host and names it in an error cell).
const qwenSettings = `{"security":{"auth":{"selectedType":"openai"}},"privacy":{"usageStatisticsEnabled":false}}`

// qwenCommand writes ~/.qwen/settings.json into the run's HOME and runs
// qwen-code headless.
func qwenCommand(bin string) []string {
	return []string{"sh", "-c", `mkdir -p "$HOME/.qwen" && printf %s "$1" > "$HOME/.qwen/settings.json" && ` +
		`exec "$2" --auth-type openai --approval-mode yolo --max-session-turns 6 -p "$3"`,
		"qwen", qwenSettings, bin, cliPrompt}
}

// cliCases are the two CLIs, before and after their fixes. Every version
// echoes reasoning_content on the normal tool loop (carriers passes: a
// generic path sends back the reasoning it received), so only missing-echo
// — a tool call served without reasoning — tells them apart, by what the
// tool-call turn carried when it came back:
//
//   - before the fix the key is left out, and DeepSeek refuses the request;
//   - the fix pads the turn with reasoning_content "" (pi 0.70.1, for
//     earendil-works/pi#3635 and #3636; qwen-code PR #3637, for
//     QwenLM/qwen-code#3578), which the DeepSeek V4 profile refuses too
//     (blank is missing): earendil-works/pi#3743 reports exactly that 400
//     for pi's "" on V4. So the cell stays a fail, for another cause.
var cliCases = []cliCase{
	{cli: "pi", version: "0.70.0", command: piCommand, bin: "node_modules/.bin/pi",
		missingEcho: "the tool-call turn carried no reasoning",
		why:         "pi before 0.70.1 leaves reasoning_content out of a tool-call turn that had none (earendil-works/pi#3635, #3636)"},
	{cli: "pi", version: "0.73.1", command: piCommand, bin: "node_modules/.bin/pi",
		missingEcho: `the tool-call turn carried reasoning_content ""`,
		why:         `pi from 0.70.1 pads with "", which DeepSeek V4 refuses too (earendil-works/pi#3743)`},
	// qwen-code on Node 20: its fetch gets the proxy from the preload.
	{cli: "qwen-code", version: "0.12.0", command: qwenCommand, bin: "node_modules/.bin/qwen", flags: []string{"--env", "NODE_OPTIONS=--import={preload}"},
		missingEcho: "the tool-call turn carried no reasoning",
		why:         "qwen-code before PR #3637 leaves reasoning_content out of a tool-call turn that had none (QwenLM/qwen-code#3578)"},
	{cli: "qwen-code", version: "0.15.10", command: qwenCommand, bin: "node_modules/.bin/qwen", flags: []string{"--env", "NODE_OPTIONS=--import={preload}"},
		missingEcho: `the tool-call turn carried reasoning_content ""`,
		why:         `qwen-code's fix (PR #3637) pads a DeepSeek-host tool-call turn with "", which the V4 profile refuses as missing`},
}

func TestAgentCLIRows(t *testing.T) {
	preload, err := filepath.Abs("../../examples/agents/node/proxy-preload.mjs")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("../../examples/agents/node/node_modules/undici/package.json"); err != nil {
		t.Fatalf("examples/agents/node: the pinned undici for the proxy preload is not installed (run make agents): %v", err)
	}
	docs, err := os.ReadFile("../../docs/agent.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cliCases {
		t.Run(c.cli+"-"+c.version, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join("../../examples/agents/clis", c.cli+"-"+c.version))
			if err != nil {
				t.Fatal(err)
			}
			bin := filepath.Join(dir, c.bin)
			if _, err := os.Stat(bin); err != nil {
				t.Fatalf("%s %s is not installed (run make clis): %v", c.cli, c.version, err)
			}
			checkInstalledVersion(t, dir, c)
			args := []string{"agent", "--matrix", testMatrix, "--intercept", "--target", "deepseek", "--format", "json",
				"--timeout", "90s", "--name", c.cli, "--agent-version", c.version}
			for _, f := range c.flags {
				args = append(args, strings.ReplaceAll(f, "{preload}", preload))
			}
			args = append(append(args, "--"), c.command(bin)...)
			start := time.Now()
			r := runMain(t, "", args...)
			t.Logf("%s %s: %.1fs", c.cli, c.version, time.Since(start).Seconds())
			var m report.Matrix
			if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
				t.Fatalf("agent --format json: %v (exit %d)\nstdout:\n%s\nstderr:\n%s", err, r.code, r.stdout, r.stderr)
			}
			judged := 0
			for _, cell := range m.Cells {
				switch cell.Scenario {
				case "carriers":
					if cell.Status != report.StatusPass {
						t.Errorf("%s: deepseek/carriers is %s, want pass (every version echoes the reasoning it received): %s", c.why, cell.Status, cell.Detail)
					}
				case "missing-echo":
					if cell.Status != report.StatusFail {
						t.Errorf("%s: deepseek/missing-echo is %s, want fail: %s", c.why, cell.Status, cell.Detail)
					}
					if !strings.Contains(cell.ProviderError, deepseekRefusal) || !strings.Contains(cell.Detail, deepseekRefusal) {
						t.Errorf("%s: deepseek/missing-echo does not fail in DeepSeek's words: %s\nprovider error: %s", c.why, cell.Detail, cell.ProviderError)
					}
					if !strings.Contains(cell.Detail, c.missingEcho) {
						t.Errorf("%s: deepseek/missing-echo does not say %q: %s", c.why, c.missingEcho, cell.Detail)
					}
				default:
					if cell.Status != report.StatusNA {
						t.Errorf("deepseek/%s is %s, want n/a: %s", cell.Scenario, cell.Status, cell.Detail)
					}
					continue
				}
				if cell.Provenance != report.ProvenanceAgent {
					t.Errorf("%s: provenance %q", cell.ID(), cell.Provenance)
				}
				judged++
			}
			if judged != 2 || r.code != exitFailures {
				t.Errorf("%d cells judged, exit %d; want 2 and 1; stderr:\n%s", judged, r.code, r.stderr)
			}
			// docs/agent.md shows each version's row as the command prints it.
			var table bytes.Buffer
			if err := report.WriteTable(&table, &m, false); err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(docs, []byte("```text\n"+table.String()+"```")) {
				t.Errorf("docs/agent.md does not show %s %s's row as replaycheck agent prints it now:\n%s", c.cli, c.version, table.String())
			}
		})
	}
}

// checkInstalledVersion holds the installed package to the pinned version:
// a lockfile edited without `make clis` would judge another version.
func checkInstalledVersion(t *testing.T, dir string, c cliCase) {
	t.Helper()
	pkg := map[string]string{"pi": "@mariozechner/pi-coding-agent", "qwen-code": "@qwen-code/qwen-code"}[c.cli]
	raw, err := os.ReadFile(filepath.Join(dir, "node_modules", pkg, "package.json"))
	if err != nil {
		t.Fatalf("%s: %v (run make clis)", pkg, err)
	}
	var meta struct{ Version string }
	if err := json.Unmarshal(raw, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.Version != c.version {
		t.Fatalf("%s installed at %s, want %s (run make clis)", pkg, meta.Version, c.version)
	}
}
