package mutate

import (
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
)

// issuers names the set of served hostnames that share a Responses
// route's issuing family, without the family's id. The engine never
// stores or compares a family's name across tables: a captured turn keeps
// the route that issued it (engine.NativeTurn.Issuer), and at replay the
// table in force decides whether that route and the current one are of
// one family (engine.ResponsesPolicy.SameIssuer). What a table decides is
// therefore the partition of hostnames into families, and the family's id
// is a label like a row's.
//
// Only hostnames that serve the API can issue or receive an item, so the
// partition compared is that of the served hostnames: a family host whose
// profiles close their hosts (serves.hosts, see [served.servedUnder])
// stands for the hostnames listed under it, and an open one for itself
// and every subdomain ("openrouter.ai+subdomains"); a host pattern stands
// for itself. A hostname that shares items with no other served hostname
// (a per-host family, no family, or a family whose only served hostname
// is itself) is "host:<hostname>"; any other is "family:" and the
// hostname with every served hostname of its family. An edit that keeps
// every hostname's issuer set (dropping a family of one served host, or
// making it per host) changes no route's decision; one that only changes
// the set of a hostname nothing serves changes the decision of a route
// no user can take, which [served.unserved] prunes.
func issuers(p engine.ResponsesPolicy, s served, hostname string) string {
	if hostname == "" {
		return ""
	}
	i := familyAt(p, hostname)
	if i < 0 || p.Families[i].PerHost {
		return "host:" + hostname
	}
	f := p.Families[i]
	set := []string{hostname}
	for _, h := range f.Match.Hosts {
		under, closed := s.servedUnder(h, engine.ModeResponses)
		if !closed {
			set = append(set, h+"+subdomains")
			continue
		}
		for _, u := range under {
			if familyAt(p, u) == i {
				set = append(set, u)
			}
		}
	}
	set = append(set, f.Match.HostPatterns...)
	slices.Sort(set)
	set = slices.Compact(set)
	if len(set) == 1 {
		return "host:" + hostname
	}
	return "family:" + strings.Join(set, ",")
}

// familyAt returns the index of the first family matching hostname, or -1.
func familyAt(p engine.ResponsesPolicy, hostname string) int {
	return slices.IndexFunc(p.Families, func(f engine.ResponsesFamily) bool { return f.Match.Matches(hostname, "") })
}
