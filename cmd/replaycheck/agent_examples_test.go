//go:build agents

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The Node and Python example agents start a process per cell (Node's a
// few hundred milliseconds), so their rows run under the agents build tag:
// `make test-agents`, which .ci/run runs after `make agents` installs the
// Node agent's pinned openai package.

// exampleAgents are the interpreted example agents, by name.
var exampleAgents = map[string][]string{
	"node":   {"node", "../../examples/agents/node/agent.mjs"},
	"python": {"python3", "../../examples/agents/python/agent.py"},
}

func requireExample(t *testing.T, name string) []string {
	t.Helper()
	argv := exampleAgents[name]
	if _, err := exec.LookPath(argv[0]); err != nil {
		t.Fatalf("%s: %v: the %s example agent needs it on PATH", argv[0], err, name)
	}
	if name == "node" {
		if _, err := os.Stat("../../examples/agents/node/node_modules/openai/package.json"); err != nil {
			t.Fatalf("examples/agents/node: the pinned openai package is not installed (run make agents): %v", err)
		}
	}
	return argv
}

func TestAgentExampleRows(t *testing.T) {
	for _, name := range []string{"node", "python"} {
		argv := requireExample(t, name)
		for _, rc := range exampleRows {
			t.Run(name+"/"+rc.mode, func(t *testing.T) {
				cmd := append(append([]string(nil), argv...), "--base-url", "{base_url}", "--model", "{model}", "--provider", "{provider}", "--mode", rc.mode)
				cells, r := agentRow(t, agentTargets, cmd...)
				checkRow(t, rc, cells, r)
			})
		}
	}
}

func TestAgentExampleFallback(t *testing.T) {
	for _, name := range []string{"node", "python"} {
		argv := requireExample(t, name)
		for _, c := range []struct{ mode, want string }{{"correct", "pass"}, {"retry-loop", "fail"}} {
			cmd := append(append([]string(nil), argv...), "--base-url", "{base_url}", "--model", "{model}", "--mode", c.mode)
			cells, _ := agentRow(t, "mistral", cmd...)
			if got := cells["mistral/fallback"]; string(got.Status) != c.want {
				t.Errorf("%s %s: mistral/fallback %s, want %s: %s", name, c.mode, got.Status, c.want, got.Detail)
			}
		}
	}
}

func TestAgentExampleIntercept(t *testing.T) {
	python := requireExample(t, "python")
	checkIntercept(t, nil, append(python, "--base-url", "{base_url}", "--model", "{model}")...)
	// Node 20's built-in fetch ignores HTTPS_PROXY; the preload installs
	// undici's EnvHttpProxyAgent (pinned) as its dispatcher.
	node := requireExample(t, "node")
	preload, err := filepath.Abs("../../examples/agents/node/proxy-preload.mjs")
	if err != nil {
		t.Fatal(err)
	}
	checkIntercept(t, []string{"--env", "NODE_OPTIONS=--import=" + preload}, append(node, "--base-url", "{base_url}", "--model", "{model}")...)
}
