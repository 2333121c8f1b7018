package mutate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/providers"
)

// speaking returns the profiles that answer for a route of mode m at host:
// those of mode m naming host or a domain it is a subdomain of, or every
// profile naming it when none of mode m does.
func (s served) speaking(host string, m engine.APIMode) []*providers.Profile {
	all := s.naming(host)
	var out []*providers.Profile
	for _, p := range all {
		if p.APIMode == string(m) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return all
	}
	return out
}

// closesHosts reports whether a profile lists the exact hostnames it
// serves (serves.hosts).
func closesHosts(p *providers.Profile) bool {
	return p.Serves != nil && len(p.Serves.Hosts) > 0
}

// hostUnserved names the declaration by which a route at host reaches
// nothing: "api.api.deepseek.com is no host the API is served at: only
// api.deepseek.com (providers/deepseek-responses.yaml serves: SOURCE)".
func hostUnserved(host string, p *providers.Profile) string {
	return fmt.Sprintf("%s is no host the API is served at: only %s (providers/%s.yaml serves: %s)",
		host, strings.Join(p.Serves.Hosts, ", "), p.Name, p.Serves.Source)
}

// pathUnserved names the declaration by which r's base URL reaches
// nothing: "https://aiplatform.googleapis.com is no path the anthropic
// API is served under at aiplatform.googleapis.com: only
// /publishers/anthropic (providers/vertex-anthropic.yaml serves: SOURCE)".
func pathUnserved(r engine.Route, p *providers.Profile) string {
	return fmt.Sprintf("%s is no path the %s API is served under at %s: only %s (providers/%s.yaml serves: %s)",
		r.BaseURL, p.APIMode, r.Host(), strings.Join(p.Serves.Paths, ", "), p.Name, p.Serves.Source)
}

// servedUnder returns the hostnames, domain or below it, at which a route
// of mode m reaches the API by the profiles' serves.hosts, sorted; ok is
// false when the profiles leave some of them open: no profile speaking for
// domain closes its hosts, or a profile at a subdomain of domain does not.
func (s served) servedUnder(domain string, m engine.APIMode) (hosts []string, ok bool) {
	var candidates []string
	for _, p := range s.speaking(domain, m) {
		if closesHosts(p) {
			ok = true
			candidates = append(candidates, p.Serves.Hosts...)
		}
	}
	if !ok {
		return nil, false
	}
	for h, list := range s.byHost {
		if h == domain || !engine.HostMatches(h, domain) {
			continue
		}
		for _, p := range s.speaking(h, m) {
			if !closesHosts(p) {
				return nil, false
			}
		}
		candidates = append(candidates, h)
		for _, p := range list {
			if closesHosts(p) {
				candidates = append(candidates, p.Serves.Hosts...)
			}
		}
	}
	for _, h := range candidates {
		if engine.HostMatches(h, domain) && s.servesHost(h, m) {
			hosts = append(hosts, h)
		}
	}
	slices.Sort(hosts)
	return slices.Compact(hosts), true
}

// servesHost reports whether a route of mode m at host reaches the API by
// the profiles' serves.hosts: no profile speaking for it closes its hosts,
// or one that does lists host.
func (s served) servesHost(host string, m engine.APIMode) bool {
	closed := false
	for _, p := range s.speaking(host, m) {
		if closesHosts(p) {
			if p.ServesHost(host) {
				return true
			}
			closed = true
		}
	}
	return !closed
}
