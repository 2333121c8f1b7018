package main

import (
	"context"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/replaycheck/replaycheck/probe"
	"github.com/replaycheck/replaycheck/suites/harness"
)

func runProbe(ctx context.Context, std *streams, args []string) error {
	f := newFlags("probe", "probe --provider P --base-url URL --model M [--api-mode chat] (--key-env VAR | --no-key) [--max-requests N] [--out DIR] [--force]",
		"Check a provider that is not in the route table yet: record its api mode's battery\n"+
			"of wire variants against it (live, with the key in the --key-env variable), infer\n"+
			"what it accepts from the variants that isolate each conclusion (a carrier is refused\n"+
			"only when adding it to an accepted body is refused), and propose the target, the\n"+
			"route-table change in the dialect's own section (a carrier row or must-echo family,\n"+
			"anthropic.routes, native_fields, responses.families, bedrock_converse) and a draft\n"+
			"provider profile whose rules name their evidence. Every other scenario the draft\n"+
			"says applies is then recorded under the proposal, and the target's whole column is\n"+
			"run. Under --out: the column's cassettes in <target>/, the battery kept only as\n"+
			"evidence in evidence/<target>/, the draft in providers/<target>.yaml, and adopt.yaml,\n"+
			"which `replaycheck adopt DIR` applies. A key is required (--key-env; on\n"+
			"*.amazonaws.com the AWS_* environment) unless --no-key says the endpoint takes none.\n"+
			"The probe stops at the first answer that is not the provider judging the request\n"+
			"body (401, 403, 404, 407, 408, 429, 5xx), quoting it, and exits 3; it exits 1 when\n"+
			"a cell of the column fails under the proposal. Refuses to run under CI=true\n"+
			"without --force.")
	var rf routeFlags
	rf.register(f)
	keyEnv := f.String("key-env", "", "the environment variable `VAR` holding the API key")
	noKey := f.Bool("no-key", false, "the endpoint takes no key (a local server, the simulator): probe it without one")
	maxRequests := f.Int("max-requests", defaultMaxRequests, maxRequestsUsage)
	out := f.String("out", "probe", "the `DIR` to write cassettes and the draft profile into")
	force := f.Bool("force", false, "record even under CI=true")
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := f.atMost(pos, 0); err != nil {
		return err
	}
	route, err := rf.route(f)
	if err != nil {
		return err
	}
	if ci := os.Getenv("CI"); !*force && (strings.EqualFold(ci, "true") || ci == "1") {
		return f.usagef("refusing to probe under CI (CI=%s): probing spends provider requests; pass --force to probe anyway", ci)
	}
	if *maxRequests < 0 {
		return f.usagef("--max-requests %d: must be 0 (no cap) or more", *maxRequests)
	}
	switch {
	case *noKey && *keyEnv != "":
		return f.usagef("--no-key and --key-env exclude each other")
	case !*noKey && *keyEnv == "" && !isAWSHost(route.Host()):
		return f.usagef("no key: pass --key-env VAR naming the variable that holds the endpoint's key, or --no-key if the endpoint takes none")
	}
	key := ""
	if *keyEnv != "" {
		if key = os.Getenv(*keyEnv); key == "" {
			return f.usagef("--key-env %s: the variable is unset or empty", *keyEnv)
		}
	}
	mf, err := f.loadMatrix()
	if err != nil {
		return err
	}
	cred, err := credentialFor(route.APIMode, route.BaseURL, key, os.Getenv, time.Now)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	sayCap(std.err, "probe", *maxRequests)
	date := time.Now().UTC().Format("2006-01-02")
	res, err := probe.Run(ctx, probe.Options{
		Route: route, Matrix: mf, Out: *out, Date: date,
		Record: harness.RecordOptions{Authorize: cred.authorize, Secrets: cred.secrets, MaxRequests: *maxRequests},
	})
	if err != nil {
		return err
	}
	if err := writeProbe(res, *out); err != nil {
		return err
	}
	if err := printProbe(std.out, res, *out); err != nil {
		return err
	}
	return columnVerdict(res)
}
