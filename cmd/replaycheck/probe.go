package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/probe"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/suites/harness"
)

func runProbe(ctx context.Context, std *streams, args []string) error {
	f := newFlags("probe", "probe --provider P --base-url URL --model M [--api-mode chat] (--key-env VAR | --no-key) [--max-requests N] [--out DIR] [--force]",
		"Check a provider that is not in the route table yet: record the wire-variant battery\n"+
			"against it (live, with the key in the --key-env variable), infer what it accepts\n"+
			"(carriers accepted and read, the must-echo pad, a strict schema, signed reasoning),\n"+
			"and print a proposed matrix.yaml target and route row, a draft provider profile,\n"+
			"and the target's column of the matrix under that proposal. The cassettes and the\n"+
			"draft profile are written under --out. Refuses to run under CI=true without --force.\n"+
			"A key is required (--key-env; on *.amazonaws.com the AWS_* environment) unless\n"+
			"--no-key says the endpoint takes none. The probe stops at the first answer that is\n"+
			"not the provider judging the request body (401, 403, 404, 407, 408, 429, 5xx),\n"+
			"quoting it, and exits 3.")
	var rf routeFlags
	rf.register(f)
	keyEnv := f.String("key-env", "", "the environment variable `VAR` holding the API key")
	noKey := f.Bool("no-key", false, "the endpoint takes no key (a local server, the simulator): probe it without one")
	maxRequests := f.Int("max-requests", 0, "stop after `N` requests to the provider (0: no cap)")
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
	date := time.Now().UTC().Format("2006-01-02")
	res, err := probe.Run(ctx, probe.Options{
		Route: route, Matrix: mf, Out: *out, Date: date,
		Record: harness.RecordOptions{Authorize: cred.authorize, Secrets: cred.secrets, MaxRequests: *maxRequests},
	})
	if err != nil {
		return err
	}
	profile, err := res.ProfileYAML(date)
	if err != nil {
		return err
	}
	// The draft sits where it can be moved into providers/ as it is.
	profilePath := filepath.Join(*out, "providers", res.Target.ID+".yaml")
	if err := os.MkdirAll(filepath.Dir(profilePath), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(profilePath, []byte(profile), 0o644); err != nil {
		return err
	}
	return printProbe(std.out, res, profile, profilePath, *out)
}

func printProbe(w io.Writer, res *probe.Result, profile, profilePath, out string) error {
	carriers := func(pick func(engine.Carrier) bool) string {
		var names []string
		for _, c := range engine.AllCarriers {
			if pick(c) {
				names = append(names, string(c))
			}
		}
		if len(names) == 0 {
			return "none"
		}
		return strings.Join(names, ", ")
	}
	fmt.Fprintf(w, "probe %s: %d requests sent, %d interactions recorded (%s) under %s\n\n", res.Target.ID, res.Sent, res.Interactions, res.Provenance, out)
	fmt.Fprintf(w, "accepted on an assistant message: %s\n", carriers(func(c engine.Carrier) bool { return res.Accepted[c] }))
	fmt.Fprintf(w, "read (the answer changed with it): %s\n", carriers(func(c engine.Carrier) bool { return res.Read[c] }))
	for _, c := range engine.AllCarriers {
		if r, ok := res.Refused[c]; ok {
			fmt.Fprintf(w, "refused %s: %d %s\n", c, r.Status, r.Body)
		}
	}
	if res.MustEcho {
		fmt.Fprintf(w, "must echo: a bare tool turn without reasoning_content was refused (%d %s); the pad was accepted\n", res.MustEchoRefusal.Status, res.MustEchoRefusal.Body)
	} else {
		fmt.Fprintln(w, "must echo: no")
	}
	if len(res.Signed) > 0 {
		fmt.Fprintf(w, "signed or opaque reasoning in: %s\n", strings.Join(res.Signed, ", "))
	} else {
		fmt.Fprintln(w, "signed or opaque reasoning: none")
	}
	fmt.Fprintf(w, "\nproposed matrix.yaml target:\n%s\nproposed route table change:\n%s\n", res.TargetYAML(), res.RouteYAML())
	fmt.Fprintf(w, "draft provider profile (%s; every rule unconfirmed until checked against the provider's docs):\n%s\n", profilePath, profile)
	fmt.Fprintln(w, "its column of the matrix under the proposal:")
	return report.WriteTable(w, res.Column, false)
}
