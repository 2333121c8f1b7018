package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/replaycheck/replaycheck/sim"
)

func runServe(ctx context.Context, std *streams, args []string) error {
	f := newFlags("serve",
		"serve --profile NAME [--addr 127.0.0.1:0] [--seed S] [--providers DIR]",
		"Serve runs the provider simulator of one profile (providers/NAME.yaml) on\n"+
			"loopback: it answers with the profile's verbatim error bodies, signs the\n"+
			"reasoning it emits, and streams when asked. The first line on standard\n"+
			"output is \"listening on http://HOST:PORT\"; one line per request goes\n"+
			"to standard error. SIGINT or SIGTERM shuts it down cleanly (exit 0).\n"+
			"Only loopback addresses are served. The same --seed gives the same\n"+
			"signatures; without it, every run signs with a fresh random key.")
	name := f.String("profile", "", "the provider profile `NAME` to simulate (required)")
	addr := f.String("addr", sim.DefaultAddr, "the loopback `HOST:PORT` to listen on; port 0 picks a free one")
	seed := f.String("seed", "", "fixes the signing key (`S`); empty draws a random key")
	var ps profileSetFlag
	ps.register(f)
	pos, err := f.parse(args)
	if err != nil {
		return err
	}
	if err := f.atMost(pos, 0); err != nil {
		return err
	}
	if *name == "" {
		return f.usagef("missing required --profile")
	}
	if err := checkLoopback(*addr); err != nil {
		return f.usageErr(err)
	}
	profiles, err := ps.load()
	if err != nil {
		return err
	}
	p, ok := profiles[*name]
	if !ok {
		return f.usagef("--profile %q: no such profile (have %s)", *name, strings.Join(profileNames(profiles), ", "))
	}
	logw := &lockedWriter{w: std.err}
	s, err := sim.New(p, sim.Options{Seed: *seed, Logf: func(format string, args ...any) {
		fmt.Fprintf(logw, format+"\n", args...)
	}})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	bound, errc, err := sim.Listen(ctx, *addr, s)
	if err != nil {
		return err
	}
	fmt.Fprintf(std.out, "listening on http://%s\n", bound)
	if fl, ok := std.out.(interface{ Sync() error }); ok {
		_ = fl.Sync()
	}
	fmt.Fprintf(logw, "serving profile %s v%d (%s); stop with Ctrl-C\n", p.Name, p.Version, p.APIMode)
	// errc delivers a serving failure, or is closed once the server has
	// stopped after the signal.
	if err, failed := <-errc; failed {
		return err
	}
	fmt.Fprintf(logw, "stopped\n")
	return nil
}

// checkLoopback refuses a listen address whose host is not loopback before
// anything is bound (sim.Listen enforces the same rule).
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %w", addr, err)
	}
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--addr %q: not a loopback address; serve binds only 127.0.0.0/8, ::1 or localhost", addr)
}

// A lockedWriter serialises writes from concurrent request handlers.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
