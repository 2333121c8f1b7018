package main

import (
	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
)

// needKey refuses a live recording that would send requests without a
// key: every target must send to an AWS host (signed with SigV4 from the
// environment) unless --key-env names the key or --no-key says the
// endpoint takes none. --simulate needs no key.
func (rf *recordFlags) needKey(f *commandFlags, targets []matrix.Target) error {
	if rf.simulate || rf.noKey || rf.keyEnv != "" {
		return nil
	}
	for _, t := range targets {
		base := rf.baseURL
		if base == "" {
			base = t.Route.BaseURL
		}
		if !isAWSHost(engine.Hostname(base)) {
			return f.usagef("--key-env VAR is required to record live: target %s sends to %s; name the variable holding its API key, or pass --no-key if the endpoint takes none (--simulate needs no key)", t.ID, base)
		}
	}
	return nil
}
