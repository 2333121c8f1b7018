package agent

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/sim"
)

// DefaultTimeout bounds one agent run when Options.Timeout is zero.
const DefaultTimeout = 60 * time.Second

// seed fixes the simulator's signing key, so an agent's cassettes are
// the same from run to run when the agent's requests are.
const seed = "replaycheck-agent"

// workFile is the file path arguments name, in the agent's working
// directory: a tool that reads it finds something to read.
const workFile = "replaycheck.txt"

// Options configure [Check].
type Options struct {
	// Matrix holds the targets; Profiles the provider profiles by name.
	Matrix   *matrix.File
	Profiles map[string]*providers.Profile
	// Targets are the target ids to check, in order (at least one).
	Targets []string
	// Scenarios selects columns; empty is every scenario.
	Scenarios []string
	// Command is the agent's command line; "{base_url}", "{model}",
	// "{provider}", "{target}" and "{api_mode}" in it are replaced.
	Command []string
	// Name names the agent in the report and its cassettes; empty derives
	// it from the command.
	Name string
	// Version is the agent's version as the report shows it; empty is
	// "unknown".
	Version string
	// Timeout bounds each run; zero is DefaultTimeout.
	Timeout time.Duration
	// Tool and Args choose the tool the simulator calls and its JSON
	// arguments; empty picks a tool that reads and fills its schema.
	Tool, Args string
	// Out, when set, is the directory the cells' cassettes go to.
	Out string
	// Env are NAME=VALUE pairs added to each run's environment.
	Env []string
	// Intercept points the agent at the target's own base URL and serves
	// its hostname through an HTTPS proxy on loopback (HTTPS_PROXY), with
	// a certificate from a CA generated for the run (SSL_CERT_FILE,
	// REQUESTS_CA_BUNDLE, NODE_EXTRA_CA_CERTS): for agents that decide
	// their routes by hostname.
	Intercept bool
	// ResumeCommand, when set, continues the agent's last session with a
	// new prompt (its own resume: "{base_url}" and the rest replaced as in
	// Command). The resume column runs Command, then ResumeCommand in the
	// same home and working directory, and judges the resumed session's
	// first request against the live one.
	ResumeCommand []string
	// CompactCommand, when set, compacts the agent's last session and
	// continues it with a new prompt (its own compaction). The compaction
	// column runs Command, then CompactCommand as ResumeCommand runs, and
	// judges what the compacted session still sends of the live turns.
	CompactCommand []string
	// Progress, when set, is called after each cell with its duration.
	Progress func(c report.Cell, took time.Duration)
}

// Check runs the agent once per target and scenario and returns its
// rows: one per target, the cells judged from the requests the simulator
// received. An error is returned only for bad options; everything the
// agent does wrong is a cell.
func Check(ctx context.Context, o Options) (*report.Matrix, error) {
	if len(o.Command) == 0 {
		return nil, errors.New("agent: no command to run")
	}
	if len(o.Targets) == 0 {
		return nil, errors.New("agent: no target")
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Name == "" {
		o.Name = Name(o.Command)
	}
	if o.Version == "" {
		o.Version = "unknown"
	}
	scenarios := o.Scenarios
	if len(scenarios) == 0 {
		scenarios = matrix.Scenarios
	}
	m := &report.Matrix{
		Implementation: &report.Implementation{Name: o.Name, Version: o.Version},
		Scenarios:      append([]string(nil), scenarios...),
	}
	for _, id := range o.Targets {
		t, ok := o.Matrix.Target(id)
		if !ok {
			return nil, fmt.Errorf("agent: --target %q: no such target", id)
		}
		if o.Intercept && !Interceptable(t.Route.BaseURL) {
			return nil, fmt.Errorf("agent: --target %q: --intercept serves a public hostname, and %s is local: point the agent at {base_url} instead", id, t.Route.BaseURL)
		}
		m.Targets = append(m.Targets, id)
		for _, sc := range scenarios {
			start := time.Now()
			c := o.cell(ctx, t, sc)
			if o.Progress != nil {
				o.Progress(c, time.Since(start))
			}
			m.Cells = append(m.Cells, c)
		}
	}
	return m, nil
}

// continuation is the agent's own command that continues its last
// session for scenario sc (resume, compaction), nil when none was given.
func (o Options) continuation(sc string) []string {
	switch {
	case sc == "resume" && len(o.ResumeCommand) > 0:
		return o.ResumeCommand
	case sc == "compaction" && len(o.CompactCommand) > 0:
		return o.CompactCommand
	}
	return nil
}

// cell plays one scenario to the agent on one target.
func (o Options) cell(ctx context.Context, t matrix.Target, sc string) report.Cell {
	c := report.Cell{Target: t.ID, Scenario: sc}
	p, ok := o.Profiles[t.Profile]
	if !ok {
		c.Status, c.Detail = report.StatusError, fmt.Sprintf("%s: no provider profile %q", t.ID, t.Profile)
		return c
	}
	if ok, why := applies(sc, t, p, o.continuation(sc) != nil); !ok {
		c.Status, c.Detail = report.StatusNA, why
		return c
	}
	j, err := o.play(ctx, t, p, sc)
	if err != nil {
		c.Status, c.Detail = report.StatusError, err.Error()
		return c
	}
	v := judge(j)
	if len(j.others) > 0 {
		v = j.otherHosts(v)
	}
	c.Status, c.Detail, c.Expected, c.Actual, c.ProviderError = v.status, v.detail, v.expected, v.actual, v.providerError
	c.Verdict, c.Confidence = v.class, v.confidence
	if c.Status == report.StatusFail && c.Verdict == "" {
		c.Verdict = report.VerdictInvariant
		if c.ProviderError != "" {
			c.Verdict = report.VerdictRefused
		} else if strings.Contains(c.Detail, "undeclared advisory") {
			c.Verdict = report.VerdictAnswer
		}
	}
	if v.status != report.StatusError {
		c.Provenance = report.ProvenanceAgent
	}
	if o.Out != "" && len(j.log) > 0 {
		path, err := writeCassette(o.Out, j, o.Name)
		if err != nil {
			c.Detail += "; " + err.Error()
		} else {
			c.Cassette = path
		}
	}
	return c
}

// play serves the target's simulator on loopback, runs the agent once
// against it and returns what happened.
func (o Options) play(ctx context.Context, t matrix.Target, p *providers.Profile, sc string) (*judgement, error) {
	tmp, err := os.MkdirTemp("", "replaycheck-agent-")
	if err != nil {
		return nil, fmt.Errorf("%s/%s: %w", t.ID, sc, err)
	}
	defer os.RemoveAll(tmp)
	home, work := filepath.Join(tmp, "home"), filepath.Join(tmp, "work")
	for _, d := range []string{home, work} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	file := filepath.Join(work, workFile)
	if err := os.WriteFile(file, []byte("The notes say the cache TTL is configurable.\n"), 0o600); err != nil {
		return nil, err
	}
	s, err := sim.New(p, sim.Options{Seed: seed})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.ID, err)
	}
	pl := &player{sim: s, mode: string(t.Route.APIMode), directive: planFor(sc, t, p).directive, tool: o.Tool, args: o.Args, path: file}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	addr, errc, err := sim.Listen(sctx, "127.0.0.1:0", pl)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.ID, err)
	}
	base := Base{URL: "http://" + addr.String() + pathOf(t.Route.BaseURL), Provider: t.Route.Provider,
		Model: t.Route.Model, Target: t.ID, APIMode: string(t.Route.APIMode)}
	served := ""
	if o.Intercept {
		base.URL = strings.TrimSuffix(t.Route.BaseURL, "/")
		served = hostOf(t.Route.BaseURL)
	}
	ic, err := startInterceptor(sctx, served, pl)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.ID, err)
	}
	proxyEnv := proxyEnvironment(ic.URL)
	if o.Intercept {
		ca := filepath.Join(tmp, "intercept-ca.pem")
		if err := os.WriteFile(ca, ic.CAPEM, 0o600); err != nil {
			return nil, err
		}
		proxyEnv = append(proxyEnv, caEnvironment(ca)...)
	}
	argv := Substitute(Absolute(o.Command), base)
	env := Environment(os.Environ(), home, base, append(proxyEnv, o.Env...))
	r := execute(ctx, argv, work, env, o.Timeout)
	var resumed *run
	from := len(pl.exchanges())
	if cont := o.continuation(sc); cont != nil && r.Started && !r.TimedOut {
		rr := execute(ctx, Substitute(Absolute(cont), base), work, env, o.Timeout)
		resumed = &rr
	}
	stop()
	for range errc {
	}
	return &judgement{target: t, profile: p, scenario: sc, plan: planFor(sc, t, p), run: r, timeout: o.Timeout,
		log: pl.exchanges(), others: ic.others(), served: served, resumed: resumed, resumedFrom: from}, nil
}

// Substitute replaces {base_url}, {model}, {provider}, {target} and
// {api_mode} in each argument.
func Substitute(argv []string, b Base) []string {
	r := strings.NewReplacer("{base_url}", b.URL, "{model}", b.Model, "{provider}", b.Provider, "{target}", b.Target, "{api_mode}", b.APIMode)
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = r.Replace(a)
	}
	return out
}

// Absolute makes each argument that is a relative path to an existing
// file or directory absolute: the agent runs in a fresh working
// directory, and `node examples/agents/node/agent.mjs` must still find
// its script. A bare program name (no path separator) is left to PATH.
func Absolute(argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = a
		if a == "" || filepath.IsAbs(a) || strings.HasPrefix(a, "-") || (i == 0 && !strings.ContainsRune(a, filepath.Separator)) {
			continue
		}
		if _, err := os.Stat(a); err == nil {
			if abs, err := filepath.Abs(a); err == nil {
				out[i] = abs
			}
		}
	}
	return out
}

// pathOf is a base URL's path without its trailing slash ("/v1" of
// https://api.deepseek.com/v1), "" when it has none.
func pathOf(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(u.EscapedPath(), "/")
}

// interpreters run a script named by their first argument that is no flag.
var interpreters = map[string]bool{"node": true, "python": true, "python3": true, "go": true, "npx": true, "sh": true, "bash": true, "deno": true, "bun": true, "uv": true}

// shells take an inline script after -c.
var shells = map[string]bool{"sh": true, "bash": true}

// Name derives an agent's name from its command: the base name of the
// program, and for an interpreter its script or package ("node
// examples/agents/node/agent.mjs", "go run ./examples/agents/go"). No
// other argument is kept: a shell's inline script (`sh -c '…'`), which may
// hold the configuration an agent is given, is named "sh -c".
func Name(argv []string) string {
	name := filepath.Base(argv[0])
	if !interpreters[name] {
		return name
	}
	for _, a := range argv[1:] {
		if shells[name] && strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c") {
			return name + " -c"
		}
		if strings.HasPrefix(a, "-") || a == "run" {
			continue
		}
		if name == "go" {
			name = "go run"
		}
		return name + " " + a
	}
	return name
}
