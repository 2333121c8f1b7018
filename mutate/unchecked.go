package mutate

import (
	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/gate"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
)

// Unchecked returns the routes to which head decides differently from
// base although no target or alias of head takes them, so that no
// recorded cell judges the change: of the routes mutate probes for either
// table (every target and alias, each with one provider id, host, path or
// model the table names, and a neutral route of each api mode; see
// [probes]), those a user may take (a model answers them at their host),
// grouped by api mode and decision change. Each group's routes come in
// probe order, the first at each host before the others, so that the
// first few name different hosts.
func Unchecked(base, head *matrix.File, profiles map[string]*providers.Profile) []gate.RouteChange {
	s := newServed(profiles)
	checked := map[engine.Route]bool{}
	for _, c := range checkedRoutes(head) {
		checked[c.Route] = true
	}
	seen := map[engine.Route]bool{}
	var out []gate.RouteChange
	group := map[string]int{}
	var firsts, rest [][]string
	hosts := map[string]bool{}
	for _, f := range []*matrix.File{head, base} {
		for _, p := range probes(f, s.claude.listed()) {
			if seen[p] || checked[p] {
				continue
			}
			seen[p] = true
			b, h := decide(&base.Table, p, s), decide(&head.Table, p, s)
			if b.key() == h.key() || s.unserved(p) != "" {
				continue
			}
			change := string(mode(p)) + ": " + b.diff(h)
			i, ok := group[change]
			if !ok {
				i = len(out)
				group[change] = i
				out = append(out, gate.RouteChange{Change: change})
				firsts, rest = append(firsts, nil), append(rest, nil)
			}
			if at := change + "\x00" + p.Host(); !hosts[at] {
				hosts[at] = true
				out[i].Hosts++
				firsts[i] = append(firsts[i], p.String())
			} else {
				rest[i] = append(rest[i], p.String())
			}
		}
	}
	for i := range out {
		out[i].Routes = append(firsts[i], rest[i]...)
	}
	return out
}

// SameDecision returns whether base and head decide the same for a route:
// every part that reaches the wire (see [decision]), so that the route's
// cells replay identically under both tables. The gate uses it to replay
// under the base table only the routes the edit changes.
func SameDecision(base, head *engine.Table, profiles map[string]*providers.Profile) func(engine.Route) bool {
	s := newServed(profiles)
	return func(r engine.Route) bool { return decide(base, r, s).key() == decide(head, r, s).key() }
}
