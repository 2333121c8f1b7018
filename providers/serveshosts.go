package providers

import (
	"slices"
	"strconv"
	"strings"
)

// ServesHost reports whether the profile's declaration lets hostname, one
// of the profile's hosts or a subdomain of one, serve its API: true when
// the profile declares no hosts, or when hostname is one of them.
func (p *Profile) ServesHost(hostname string) bool {
	if p == nil || p.Serves == nil || len(p.Serves.Hosts) == 0 {
		return true
	}
	return slices.Contains(p.Serves.Hosts, hostname)
}

// servesHostsIssues checks serves.hosts: bare lower-case hostnames, each
// one of the profile's hosts or a subdomain of one (a declaration speaks
// only for the hosts it is at), none listed twice.
func (p *Profile) servesHostsIssues() []*ValidationError {
	if p.Serves == nil {
		return nil
	}
	var out []*ValidationError
	seen := map[string]bool{}
	for i, h := range p.Serves.Hosts {
		path := at(nil, "serves", "hosts", strconv.Itoa(i))
		switch {
		case h == "" || strings.ContainsAny(h, "/: \t*") || strings.ToLower(h) != h:
			out = append(out, issue(path, "serves: host %q is not a bare lower-case host name", h))
		case !slices.ContainsFunc(p.Hosts, func(d string) bool { return h == d || strings.HasSuffix(h, "."+d) }):
			out = append(out, issue(path, "serves: host %q is none of the profile's hosts (%s) nor a subdomain of one", h, strings.Join(p.Hosts, ", ")))
		case seen[h]:
			out = append(out, issue(path, "serves: host %q is listed twice", h))
		}
		seen[h] = true
	}
	return out
}
