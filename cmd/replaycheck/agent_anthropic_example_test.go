//go:build agents

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/report"
)

// The Anthropic example agent (examples/agents/anthropic, on the pinned
// @anthropic-ai/sdk) is judged in the Anthropic dialect: Anthropic's own
// signed thinking, DeepSeek's and Kimi's endpoints that refuse a tool-use
// turn without thinking, MiniMax's that reads thinking and refuses
// nothing. It reads ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY from the run,
// as the README's command has it.

// anthropicTargets are the Anthropic-dialect targets the example is
// judged on.
var anthropicTargets = "anthropic,deepseek-anthropic,kimi-anthropic,minimax-anthropic"

// anthropicRows are the rows of the Anthropic example's modes, the
// failures in the provider's words.
var anthropicRows = []rowCase{
	{mode: "correct", minJudged: 8, reason: "the SDK's blocks back as returned, the \" \" pad on DeepSeek and Kimi"},
	{mode: "no-pad", minJudged: 8, reason: "a bare tool-use turn goes back without thinking", fail: map[string]string{
		"deepseek-anthropic/missing-echo": "The `content[].thinking` in the thinking mode must be passed back to the API.",
		"kimi-anthropic/missing-echo":     "thinking is enabled but reasoning_content is missing in assistant tool call message",
	}},
	{mode: "drop-signatures", minJudged: 8, reason: "thinking text back without its signature", fail: map[string]string{
		"anthropic/carriers":                 "thinking.signature: Field required",
		"anthropic/signed-roundtrip":         "thinking.signature: Field required",
		"minimax-anthropic/signed-roundtrip": "not echoed byte for byte",
	}},
	{mode: "drop-thinking", minJudged: 8, reason: "no thinking block back on the tool turn", fail: map[string]string{
		"anthropic/carriers":                 "Expected `thinking` or `redacted_thinking`, but found `tool_use`",
		"anthropic/signed-roundtrip":         "Expected `thinking` or `redacted_thinking`, but found `tool_use`",
		"deepseek-anthropic/carriers":        "The `content[].thinking` in the thinking mode must be passed back to the API.",
		"kimi-anthropic/carriers":            "reasoning_content is missing",
		"minimax-anthropic/carriers":         "undeclared advisory",
		"minimax-anthropic/signed-roundtrip": "not echoed byte for byte",
	}},
}

// requireAnthropicExample is the Anthropic example's command, failing the
// test when node or the pinned SDK is missing.
func requireAnthropicExample(t *testing.T) []string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node: %v: the Anthropic example agent needs it on PATH", err)
	}
	if _, err := os.Stat("../../examples/agents/anthropic/node_modules/@anthropic-ai/sdk/package.json"); err != nil {
		t.Fatalf("examples/agents/anthropic: the pinned @anthropic-ai/sdk is not installed (run make agents): %v", err)
	}
	return []string{"node", "../../examples/agents/anthropic/agent.mjs"}
}

func TestAgentAnthropicExampleRows(t *testing.T) {
	argv := requireAnthropicExample(t)
	for _, stream := range []bool{false, true} {
		for _, rc := range anthropicRows {
			name := rc.mode
			cmd := append(append([]string(nil), argv...), "--model", "{model}", "--mode", rc.mode)
			if stream {
				name += "-stream"
				cmd = append(cmd, "--stream")
			}
			t.Run(name, func(t *testing.T) {
				cells, r := agentRow(t, anthropicTargets, cmd...)
				checkRow(t, rc, cells, r)
			})
		}
	}
}

// TestAgentAnthropicExampleIntercept plays deepseek-anthropic-claude-name
// (Claude Code's model name at DeepSeek's endpoint) to the agent told no
// provider: at a loopback URL nothing tells it the route is DeepSeek's, so
// its bare tool-use turn goes back unpadded and is refused; under
// --intercept it is given https://api.deepseek.com/anthropic in
// ANTHROPIC_BASE_URL, reaches it through the run's proxy (the Node 20
// preload) and CA, pads, and passes. Anthropic's own host passes too.
func TestAgentAnthropicExampleIntercept(t *testing.T) {
	argv := requireAnthropicExample(t)
	cmd := append(append([]string(nil), argv...), "--model", "{model}")
	const targets = "anthropic,deepseek-anthropic-claude-name"
	plain, _ := agentRow(t, targets, cmd...)
	if c := plain["deepseek-anthropic-claude-name/missing-echo"]; c.Status != report.StatusFail || !strings.Contains(c.Detail, "must be passed back to the API") {
		t.Errorf("at a loopback URL deepseek-anthropic-claude-name/missing-echo is %s, want DeepSeek's refusal: %s", c.Status, c.Detail)
	}
	preload, err := filepath.Abs("../../examples/agents/node/proxy-preload.mjs")
	if err != nil {
		t.Fatal(err)
	}
	routed, r := agentRowWith(t, targets, []string{"--intercept", "--env", "NODE_OPTIONS=--import=" + preload}, cmd...)
	allJudgedPass(t, "--intercept", routed, r, 4)
}

// TestAgentAnthropicREADMECommand runs the README's Anthropic-SDK command
// as the README writes it (the agent reads ANTHROPIC_BASE_URL and
// ANTHROPIC_API_KEY from the run): every judged cell passes.
func TestAgentAnthropicREADMECommand(t *testing.T) {
	requireAnthropicExample(t)
	const line = "replaycheck agent --target anthropic --target deepseek-anthropic -- node examples/agents/anthropic/agent.mjs --model {model}\n"
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), line) {
		t.Fatalf("README.md no longer holds the Anthropic-SDK command this test runs:\n%s", line)
	}
	cells, r := agentRowWith(t, "anthropic,deepseek-anthropic", nil, "node", "../../examples/agents/anthropic/agent.mjs", "--model", "{model}")
	checkRow(t, rowCase{mode: "README", minJudged: 4, reason: "the README's Anthropic-SDK command"}, cells, r)
}
