package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/sim"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// recordFlags are the parsed flags of `record`.
type recordFlags struct {
	targets, scenarios listFlag
	all, simulate      bool
	force, noKey       bool
	baseURL, keyEnv    string
	seed, out          string
	maxRequests        int
}

func runRecord(ctx context.Context, std *streams, args []string) error {
	f := newFlags("record",
		"record (--target ID | --all) [--scenario S] [--base-url URL] (--key-env VAR | --no-key)\n"+
			"       [--max-requests N] [--out DIR] [--force] [--simulate [--seed S]] [--providers DIR]",
		"Record drives each applicable scenario of a target through the full\n"+
			"battery of wire variants and writes the provider's answers to\n"+
			"DIR/<target>/<scenario>.yaml, one cassette per scenario, printing one\n"+
			"line per cassette written. Which scenarios apply is the provider\n"+
			"profile's call. --base-url only redirects where requests go (the\n"+
			"simulator, a regional endpoint); the route stays the target's own.\n"+
			"The key in the --key-env variable is added to outgoing requests only\n"+
			"(chat and responses: Authorization: Bearer, anthropic: x-api-key,\n"+
			"gemini: x-goog-api-key, *.openai.azure.com: api-key; *.amazonaws.com\n"+
			"hosts are signed with SigV4 from\n"+
			"AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN) and is\n"+
			"scrubbed from everything written. A live recording needs --key-env (or\n"+
			"SigV4 credentials), or --no-key for an endpoint that takes no key.\n"+
			"A cassette is written only when every answer in it is the provider\n"+
			"judging the request: a 2xx, or a 4xx about the body (400, 409, 411,\n"+
			"413, 415, 422). A cell answered 401, 403, 404, 407, 408, 429, a 5xx or\n"+
			"the like stops at that answer and writes nothing, its status and the\n"+
			"provider's words quoted; the other cells are still recorded, and the\n"+
			"run ends naming the cells not recorded (exit 3). A live run sends at\n"+
			"most --max-requests requests, 300 unless given, and says so first; the\n"+
			"cell the cap stops and those after it are not written. A cassette is\n"+
			"written to a temporary file and renamed, so a failed or interrupted\n"+
			"recording leaves the old one intact. --simulate records against the\n"+
			"target profile's simulator, started in-process on loopback, with no key\n"+
			"and no cap unless --max-requests is given. Cassettes answered by a\n"+
			"simulator carry simulated provenance (profile and version), others\n"+
			"recorded provenance (today's UTC date and the base URL host). Refuses\n"+
			"to run under CI=true unless --force.")
	var rf recordFlags
	f.Var(&rf.targets, "target", "the target `ID`s to record (comma-separated or repeated)")
	f.BoolVar(&rf.all, "all", false, "record every target of the matrix")
	f.Var(&rf.scenarios, "scenario", "record only these scenarios (`S`, comma-separated or repeated)")
	f.StringVar(&rf.baseURL, "base-url", "", "send requests to this base `URL` instead of the target's")
	f.StringVar(&rf.keyEnv, "key-env", "", "the environment variable `VAR` holding the API key")
	f.BoolVar(&rf.noKey, "no-key", false, "record live without a key: the endpoint takes none (a local server)")
	f.IntVar(&rf.maxRequests, "max-requests", defaultMaxRequests, maxRequestsUsage)
	f.StringVar(&rf.out, "out", "cassettes", "the cassette `DIR`")
	f.BoolVar(&rf.force, "force", false, "record even under CI=true")
	f.BoolVar(&rf.simulate, "simulate", false, "record against the target profile's simulator on loopback")
	f.StringVar(&rf.seed, "seed", "", "the simulator's signing seed `S` with --simulate (fixed: reproducible cassettes)")
	var ps profileSetFlag
	ps.register(f)
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := f.atMost(pos, 0); err != nil {
		return err
	}
	if err := rf.check(f); err != nil {
		return err
	}
	rf.maxRequests = recordCap(f.FlagSet, rf.maxRequests, rf.simulate)
	mf, err := f.loadMatrix()
	if err != nil {
		return err
	}
	targets, err := rf.selectTargets(f, mf)
	if err != nil {
		return err
	}
	for _, s := range rf.scenarios {
		if !matrix.IsScenario(s) {
			return f.usagef("--scenario %q: unknown scenario (want one of %s)", s, strings.Join(matrix.Scenarios, ", "))
		}
	}
	key := ""
	if rf.keyEnv != "" {
		if key = os.Getenv(rf.keyEnv); key == "" {
			return f.usagef("--key-env %s: the variable is unset or empty", rf.keyEnv)
		}
	}
	if err := rf.needKey(f, targets); err != nil {
		return err
	}
	profiles, err := ps.load()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	r := &recorder{
		std: std, flags: rf, table: &mf.Table, profiles: profiles, key: key,
		getenv: os.Getenv, now: time.Now,
	}
	if !rf.simulate {
		sayCap(std.err, "record", rf.maxRequests)
	}
	var halt error
	for _, t := range targets {
		if halt = r.target(ctx, t); halt != nil {
			break
		}
	}
	sayNotRecorded(std.err, r.failed, r.notStarted)
	if halt != nil {
		return halt
	}
	if n := len(r.failed) + len(r.notStarted); n > 0 {
		return incomplete(n, cellsNotRecorded[0], cellsNotRecorded[1])
	}
	if r.written == 0 {
		fmt.Fprintf(std.err, "record: no scenario applies to the selection; nothing written\n")
	}
	return nil
}

// check validates the flag combination.
func (rf *recordFlags) check(f *commandFlags) error {
	switch {
	case len(rf.targets) == 0 && !rf.all:
		return f.usagef("missing required --target (or --all)")
	case len(rf.targets) > 0 && rf.all:
		return f.usagef("--target and --all exclude each other")
	case rf.simulate && rf.baseURL != "":
		return f.usagef("--simulate and --base-url exclude each other: --simulate sends to its own loopback simulator")
	case rf.seed != "" && !rf.simulate:
		return f.usagef("--seed is the simulator's signing seed: it needs --simulate")
	case rf.noKey && rf.keyEnv != "":
		return f.usagef("--no-key and --key-env exclude each other")
	case rf.maxRequests < 0:
		return f.usagef("--max-requests %d: must be 0 (no cap) or more", rf.maxRequests)
	}
	if rf.baseURL != "" {
		if u, err := url.Parse(rf.baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return f.usagef("--base-url %q: want an absolute http(s) URL", rf.baseURL)
		}
	}
	if ci := os.Getenv("CI"); !rf.force && (strings.EqualFold(ci, "true") || ci == "1") {
		return f.usagef("refusing to record under CI (CI=%s): recording spends provider requests and rewrites cassettes; pass --force to record anyway", ci)
	}
	return nil
}

// selectTargets returns the selected targets in matrix order.
func (rf *recordFlags) selectTargets(f *commandFlags, mf *matrix.File) ([]matrix.Target, error) {
	if rf.all {
		return mf.Targets, nil
	}
	for _, id := range rf.targets {
		if _, ok := mf.Target(id); !ok {
			return nil, f.usagef("--target %q: no such target in %s", id, mf.Path)
		}
	}
	var out []matrix.Target
	for _, t := range mf.Targets {
		if slices.Contains(rf.targets, t.ID) {
			out = append(out, t)
		}
	}
	return out, nil
}

// A recorder writes the cassettes of one `record` run.
type recorder struct {
	std      *streams
	flags    recordFlags
	table    *engine.Table
	profiles map[string]*providers.Profile
	key      string
	// sent counts the requests the run has sent to the network, against
	// --max-requests.
	sent    countingTransport
	written int
	// failed are the cells not written, with why; notStarted the cells
	// never started once the cap was reached (capped).
	failed     []notRecorded
	notStarted []string
	capped     bool
	getenv     func(string) string
	now        func() time.Time
}

// target records every applicable selected scenario of t.
func (r *recorder) target(ctx context.Context, t matrix.Target) error {
	p, err := profileFor(r.profiles, t)
	if err != nil {
		return err
	}
	var cells []scenario.Scenario
	for _, sc := range scenario.All() {
		if len(r.flags.scenarios) > 0 && !slices.Contains(r.flags.scenarios, sc.Name) {
			continue
		}
		if ok, why := sc.Applies(t, p); !ok {
			if len(r.flags.scenarios) > 0 {
				fmt.Fprintf(r.std.err, "skip %s/%s: does not apply (%s)\n", t.ID, sc.Name, why)
			}
			continue
		}
		cells = append(cells, sc)
	}
	if len(cells) == 0 {
		return nil
	}
	if r.capped {
		for _, sc := range cells {
			r.notStarted = append(r.notStarted, t.ID+"/"+sc.Name)
		}
		return nil
	}
	send := r.flags.baseURL
	if r.flags.simulate {
		simCtx, cancel := context.WithCancel(ctx)
		s, err := sim.New(p, sim.Options{Seed: r.flags.seed})
		if err != nil {
			cancel()
			return fmt.Errorf("target %s: %w", t.ID, err)
		}
		addr, done, err := sim.Listen(simCtx, sim.DefaultAddr, s)
		if err != nil {
			cancel()
			return fmt.Errorf("target %s: %w", t.ID, err)
		}
		defer func() {
			cancel()
			for range done {
			}
		}()
		send = "http://" + addr.String()
	}
	sendBase := send
	if sendBase == "" {
		sendBase = t.Route.BaseURL
	}
	cred := credential{scheme: "none"}
	if !r.flags.noKey {
		if cred, err = credentialFor(t.Route.APIMode, sendBase, r.key, r.getenv, r.now); err != nil {
			return fmt.Errorf("target %s: %w", t.ID, err)
		}
	}
	for _, sc := range cells {
		cell := t.ID + "/" + sc.Name
		if r.capped {
			r.notStarted = append(r.notStarted, cell)
			continue
		}
		err := r.cell(ctx, t, p, sc, send, sendBase, cred)
		var answer *harness.AnswerError
		var capErr *harness.CapError
		switch {
		case err == nil:
		case errors.Is(err, context.Canceled):
			return fmt.Errorf("%s: interrupted; nothing written for this cell", cell)
		case errors.As(err, &answer):
			fmt.Fprintf(r.std.err, "%s: not recorded: %v; nothing written for this cell\n", cell, answer)
			r.failed = append(r.failed, notRecorded{cell, harness.StatusLine(answer.Code) + " (" + answer.Why + ")"})
		case errors.As(err, &capErr):
			fmt.Fprintf(r.std.err, "%s: not recorded: %v; nothing written for this cell\n", cell, capErr)
			r.failed = append(r.failed, notRecorded{cell, fmt.Sprintf("%v (--max-requests %d)", harness.ErrRequestCap, capErr.Cap)})
			r.capped = true
		default:
			return err
		}
	}
	return nil
}

// cell records one target × scenario and writes its cassette; on any
// failure nothing is written and the old cassette stays. send is the
// --base-url or the simulator (empty: the target's own base URL), sendBase
// where requests go either way.
func (r *recorder) cell(ctx context.Context, t matrix.Target, p *providers.Profile, sc scenario.Scenario, send, sendBase string, cred credential) error {
	opts := harness.RecordOptions{
		SendBaseURL: send,
		Authorize:   cred.authorize,
		Secrets:     cred.secrets,
		MaxRequests: r.flags.maxRequests,
		Spent:       r.sent.count(),
		Transport:   &r.sent,
	}
	its, rec, err := scenario.RecordWith(ctx, t, r.table, p, sc, opts)
	if err != nil {
		return err
	}
	prov, err := r.provenance(t, p, sc, sendBase, rec)
	if err != nil {
		return err
	}
	// The recording refused every answer that is not the provider judging
	// the request (harness.NotJudged), so what it holds may be written.
	file := &harness.File{Version: 2, Provenance: prov, Interactions: its}
	path := harness.Path(r.flags.out, t.ID, sc.Name)
	if err := harness.Write(path, file); err != nil {
		return err
	}
	r.written++
	what := prov.Kind + " " + prov.Profile + "/v" + fmt.Sprint(prov.ProfileVersion)
	if prov.Kind == harness.Recorded {
		what = prov.Kind + " " + prov.Host + " " + prov.Date
	}
	fmt.Fprintf(r.std.out, "wrote %s (%s, %d interactions, %d requests sent)\n", path, what, len(its), rec.Sent())
	return nil
}

// provenance says where the answers came from: the simulator that
// identified itself (which must simulate the target's own profile), or the
// live endpoint at sendBase, where the requests went.
func (r *recorder) provenance(t matrix.Target, p *providers.Profile, sc scenario.Scenario, sendBase string, rec *harness.Recording) (harness.Provenance, error) {
	prov := harness.Provenance{Target: t.ID, Scenario: sc.Name}
	if name, version, ok := rec.Simulator(); ok {
		if name != p.Name {
			return prov, fmt.Errorf("%s/%s: the simulator at %s simulates profile %q, but the target's profile is %q; nothing written", t.ID, sc.Name, sendBase, name, p.Name)
		}
		prov.Kind, prov.Profile, prov.ProfileVersion = harness.Simulated, name, version
		return prov, nil
	}
	prov.Kind, prov.Date, prov.Host = harness.Recorded, r.now().UTC().Format(time.DateOnly), engine.Hostname(sendBase)
	return prov, nil
}
