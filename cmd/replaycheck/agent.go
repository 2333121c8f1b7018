package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/replaycheck/replaycheck/agent"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

func runAgent(ctx context.Context, std *streams, args []string) error {
	f := newFlags("agent",
		"agent --target ID [--target ID]... [--scenario S]... [--format text|md|json|junit|html] [--timeout D]\n"+
			"       [--intercept] [--tool NAME [--args JSON]] [--out DIR] [--env NAME=VALUE]... -- CMD [ARGS...]",
		"Agent checks an unmodified agent by playing its provider. For each target\n"+
			"and scenario it starts the target profile's simulator on 127.0.0.1, runs\n"+
			"CMD once in a fresh working directory with a fresh HOME and XDG_*\n"+
			"directories, and judges the requests the simulator received, never the\n"+
			"agent's exit code. {base_url}, {model}, {provider}, {target} and\n"+
			"{api_mode} in ARGS are replaced by the simulator's URL (with the target's\n"+
			"path, such as /v1) and the target's route; the run's environment sets\n"+
			"OPENAI_BASE_URL, OPENAI_MODEL, ANTHROPIC_BASE_URL, DEEPSEEK_BASE_URL,\n"+
			"GOOGLE_GEMINI_BASE_URL, REPLAYCHECK_BASE_URL, REPLAYCHECK_MODEL, ... and a\n"+
			"fake key in each SDK's key variable; only PATH, the locale and the Go\n"+
			"and npm caches are inherited.\n\n"+
			"The simulator answers a request that declares tools with reasoning and\n"+
			"a call to one of them (--tool, else one whose name reads: read, view,\n"+
			"list, ls, glob, else the first), its arguments filled from the tool's\n"+
			"schema (--args to give them), and judges the request that sends the\n"+
			"result back, found by the call's id. carriers serves the profile's\n"+
			"reasoning; missing-echo serves the call without reasoning; strict-schema\n"+
			"and fallback serve every carrier (fallback: a refused carrier must be\n"+
			"dropped and the request retried exactly once); signed-roundtrip checks\n"+
			"every signature comes back byte for byte; flags checks the vendor's\n"+
			"keep-thinking flag. resume runs with --resume-cmd \"CMD ARGS\": the\n"+
			"agent's own command that continues its last session with a new prompt,\n"+
			"run after CMD in the same home and working directory; the resumed\n"+
			"session's first request must send the live request's conversation as\n"+
			"the live one did, reasoning included. compaction runs with --compact-cmd,\n"+
			"the agent's command that compacts its last session and continues it:\n"+
			"the turns it keeps must go out as live, reasoning included. branch is n/a.\n\n"+
			"A refusal fails the cell in the provider's words. An agent that sends\n"+
			"nothing, exits or hangs (--timeout) before the judged request, or sends\n"+
			"a body the simulator cannot read gets an error cell naming the step.\n"+
			"An agent that calls any other host is refused (HTTPS_PROXY points at a\n"+
			"proxy on loopback; loopback itself is NO_PROXY) and gets an error cell\n"+
			"naming the host.\n\n"+
			"--intercept is for agents that decide their routes by hostname: {base_url}\n"+
			"is the target's own URL (https://api.deepseek.com/v1), and the proxy\n"+
			"answers CONNECT for that hostname with a certificate from a CA generated\n"+
			"for the run (SSL_CERT_FILE, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE and\n"+
			"NODE_EXTRA_CA_CERTS name it). Go, Python and curl honour HTTPS_PROXY;\n"+
			"Node's built-in fetch does when NODE_USE_ENV_PROXY=1 (set) is supported\n"+
			"(Node 24; 22.21), else through a preload (examples/agents/node/README).\n\n"+
			"--out keeps each cell's exchanges in DIR/<target>/<scenario>.yaml\n"+
			"(provenance agent). Exit codes are run's: 1 when a cell fails, 3 when one\n"+
			"could not be judged, 4 when no cell was judged.")
	var targets, scenarios, env listFlag
	f.Var(&targets, "target", "check the agent against target `ID` (repeatable or comma-separated; required)")
	f.Var(&scenarios, "scenario", "play only scenario `S` (repeatable or comma-separated)")
	format := f.String("format", "text", "print the row as `FORMAT`: text, md, json, junit or html")
	timeout := f.Duration("timeout", agent.DefaultTimeout, "stop an agent run after `D`")
	tool := f.String("tool", "", "the tool `NAME` the simulator calls (one the agent declares)")
	toolArgs := f.String("args", "", "the tool call's arguments, a JSON object (default: filled from the tool's schema)")
	out := f.String("out", "", "keep each cell's exchanges as cassettes under `DIR`")
	name := f.String("name", "", "the agent's `NAME` in the report (default: the command's)")
	version := f.String("agent-version", "unknown", "the agent's version `V`, as the report shows it")
	f.Var(&env, "env", "add `NAME=VALUE` to each run's environment (repeatable)")
	compactCmd := f.String("compact-cmd", "", "the agent's `CMD` that compacts its last session and continues it (quoted): plays compaction")
	resumeCmd := f.String("resume-cmd", "", "the agent's `CMD` that continues its last session with a new prompt (a command line, quoted; {base_url} and the rest replaced): plays resume")
	intercept := f.Bool("intercept", false, "give the agent the target's own base URL and serve its hostname through an HTTPS proxy on loopback")
	var profileSet profileSetFlag
	profileSet.register(f)
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if *format == "text" {
		*format = "table"
	}
	write, known := formatWriter(*format)
	set := map[string]bool{}
	f.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case len(pos) == 0:
		return f.usagef("missing the agent's command: put it after --")
	case len(targets) == 0:
		return f.usagef("missing required --target")
	case !known:
		return f.usagef("--format %q: unknown format (want text, md, json, junit or html)", *format)
	case *timeout <= 0:
		return f.usagef("--timeout %s: must be positive", *timeout)
	case *toolArgs != "" && !validObject(*toolArgs):
		return f.usagef("--args %q: not a JSON object", *toolArgs)
	}
	var resume, compact []string
	for _, c := range []struct {
		flag string
		line *string
		argv *[]string
	}{{"--resume-cmd", resumeCmd, &resume}, {"--compact-cmd", compactCmd, &compact}} {
		if *c.line == "" {
			continue
		}
		argv, err := splitCommand(*c.line)
		if err != nil || len(argv) == 0 {
			return f.usagef("%s %q: want a command line (%v)", c.flag, *c.line, err)
		}
		*c.argv = argv
	}
	for _, kv := range env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return f.usagef("--env %q: want NAME=VALUE", kv)
		}
	}
	mf, err := f.loadMatrix()
	if err != nil {
		return err
	}
	if err := checkSelection(f, mf, targets, scenarios); err != nil {
		return err
	}
	for _, id := range targets {
		if _, _, alias := mf.Alias(id); alias {
			return f.usagef("--target %q: an alias has no simulator of its own; check its target", id)
		}
		if t, _ := mf.Target(id); *intercept && !agent.Interceptable(t.Route.BaseURL) {
			return f.usagef("--target %q: --intercept serves a public hostname, and %s is local: point the agent at {base_url} instead", id, t.Route.BaseURL)
		}
	}
	profiles, err := profileSet.load()
	if err != nil {
		return err
	}
	p := newProgress(std.err, len(targets)*selected(len(scenario.All()), len(scenarios)))
	m, err := agent.Check(ctx, agent.Options{
		Matrix: mf, Profiles: profiles, Targets: targets, Scenarios: scenarios, Command: pos, Name: *name, Version: *version,
		Timeout: *timeout, Tool: *tool, Args: *toolArgs, Out: *out, Env: env, Intercept: *intercept, ResumeCommand: resume, CompactCommand: compact,
		Progress: func(c report.Cell, took time.Duration) {
			p.tick(c.ID(), fmt.Sprintf("%s (%.1fs)", c.Text(), took.Seconds()))
		},
	})
	p.done()
	if err != nil {
		return err
	}
	if err := write(std.out, m, false); err != nil {
		return err
	}
	counts := m.Counts()
	if n := counts[report.StatusError]; n > 0 {
		return incomplete(n, "cell could not be judged (error): its detail names the step the agent broke",
			"cells could not be judged (error): their details name the step the agent broke")
	}
	return verdictOf(counts)
}

// validObject reports whether s is a JSON object.
func validObject(s string) bool {
	var v map[string]any
	return json.Unmarshal([]byte(s), &v) == nil
}
