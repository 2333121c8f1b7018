package mutate

import (
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
)

// issuers names the set of hostnames that share a Responses route's
// issuing family, without the family's id. The engine never stores or
// compares a family's name across tables: a captured turn keeps the route
// that issued it (engine.NativeTurn.Issuer), and at replay the table in
// force decides whether that route and the current one are of one family
// (engine.ResponsesPolicy.SameIssuer). What a table decides is therefore
// the partition of hostnames into families, and the family's id is a
// label like a row's. A hostname that is its own issuer (a per-host
// family, or no family) is "host:<hostname>"; any other is the hosts and
// host patterns of the first family matching it, which are exactly the
// hostnames it shares items with. An edit that keeps every hostname's
// issuer set (dropping a per-host family whose hostnames no later family
// matches, say) changes no route's decision.
func issuers(p engine.ResponsesPolicy, hostname string) string {
	if hostname == "" {
		return ""
	}
	f, ok := p.FamilyOf(hostname)
	if !ok || f.PerHost {
		return "host:" + hostname
	}
	set := append(slices.Clone(f.Match.Hosts), f.Match.HostPatterns...)
	slices.Sort(set)
	return "family:" + strings.Join(slices.Compact(set), ",")
}
