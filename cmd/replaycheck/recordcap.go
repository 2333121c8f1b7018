package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
)

// defaultMaxRequests is the request cap of a live `record` or `probe` run
// when --max-requests is not given: enough for a target's whole battery,
// few enough that a mistake costs little.
const defaultMaxRequests = 300

// maxRequestsUsage is the help text of --max-requests.
const maxRequestsUsage = "stop after `N` requests to the provider in this run (0: no cap)"

// recordCap is the cap of a record run: the --max-requests given, or the
// default; a --simulate run sends nothing to a provider, so it has no cap
// unless one is given.
func recordCap(f *flag.FlagSet, given int, simulate bool) int {
	set := false
	f.Visit(func(fl *flag.Flag) { set = set || fl.Name == "max-requests" })
	if simulate && !set {
		return 0
	}
	return given
}

// sayCap prints a live run's cap before anything is sent; command is
// "record" or "probe".
func sayCap(w io.Writer, command string, cap int) {
	if cap == 0 {
		fmt.Fprintf(w, "%s: no request cap (--max-requests 0)\n", command)
		return
	}
	fmt.Fprintf(w, "%s: at most %d requests (--max-requests)\n", command, cap)
}

// A countingTransport is the network transport of a record run: it counts
// every request sent, cells that fail included, so the cap holds across
// the run.
type countingTransport struct{ n atomic.Int64 }

// RoundTrip sends req with http.DefaultTransport and counts it.
func (c *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(req)
}

// count returns how many requests were sent.
func (c *countingTransport) count() int { return int(c.n.Load()) }
