package mutate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
)

// served answers, from the profiles' `serves` declarations, whether a
// route's host serves its model, and whether a Claude id names a Claude
// model at all. A route whose host serves no such model reaches nothing
// there: a probe of that shape is no route a user can take, so a decision
// it alone changes does not make a survivor.
type served struct {
	// byHost lists the profiles naming each host, by profile name.
	byHost map[string][]*providers.Profile
	// patterned lists the profiles that name hosts by pattern, by name.
	patterned []*providers.Profile
	claude    claudeModels
}

func newServed(profiles map[string]*providers.Profile) served {
	s := served{byHost: map[string][]*providers.Profile{}, claude: newClaudeModels(profiles)}
	for _, p := range profiles {
		for _, h := range p.Hosts {
			s.byHost[h] = append(s.byHost[h], p)
		}
		if len(p.HostPatterns) > 0 {
			s.patterned = append(s.patterned, p)
		}
	}
	byName := func(list []*providers.Profile) {
		sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	}
	for _, list := range s.byHost {
		byName(list)
	}
	byName(s.patterned)
	return s
}

// unserved returns the fact that no model answers r at its host
// ("api.deepseek.com serves only model ids containing deepseek
// (providers/deepseek.yaml serves: SOURCE)"), or "" when its host may
// serve it. A profile speaks for its hosts and their subdomains, which DNS
// puts in the same operator's hands. The profiles of r's api mode at its
// host decide; when no profile there speaks r's mode, every profile at the
// host does. r is unserved when one of them declares what it serves, and
// none that declares serves both r's model and r's host: a profile that
// closes its hosts (serves.hosts) serves none of their other subdomains,
// and one that closes its paths (serves.paths) no other path of its mode.
// A profile that declares nothing says nothing, and the provider id never
// counts: it is a label the user picks.
// Whatever the host, r is unserved when its model spells a Claude version
// no Claude model has ([claudeModels]).
func (s served) unserved(r engine.Route) string {
	if why := s.claude.unknown(r.Model); why != "" {
		return why
	}
	host := r.Host()
	var by *providers.Profile
	for _, p := range s.speaking(host, mode(r)) {
		if p.Serves == nil {
			continue
		}
		if p.ServesModel(r.Model) && p.ServesHost(host) && p.ServesPath(string(mode(r)), r.BaseURL) {
			return ""
		}
		if by == nil {
			by = p
		}
	}
	if by == nil {
		return ""
	}
	if !by.ServesHost(host) {
		return hostUnserved(host, by)
	}
	if !by.ServesPath(string(mode(r)), r.BaseURL) {
		return pathUnserved(r, by)
	}
	return fmt.Sprintf("%s serves only %s (providers/%s.yaml serves: %s)",
		host, by.Serves.Described(), by.Name, by.Serves.Source)
}

// naming returns the profiles naming host, by name or by pattern, or a
// domain it is a subdomain of, the nearest first.
func (s served) naming(host string) []*providers.Profile {
	var out []*providers.Profile
	for _, p := range s.patterned {
		if p.PatternNames(host) {
			out = append(out, p)
		}
	}
	for h := host; h != ""; {
		out = append(out, s.byHost[h]...)
		_, parent, ok := strings.Cut(h, ".")
		if !ok || !strings.Contains(parent, ".") {
			break
		}
		h = parent
	}
	return out
}

// An UnservedRoute is a target or alias whose host, by a profile's
// `serves` declaration, does not serve its model: the table or the
// declaration is wrong.
type UnservedRoute struct {
	// Name is the target id or alias name ("kimi~1").
	Name string
	// Line is the target's or alias's line in matrix.yaml.
	Line int
	// Route is the route, described as in a report.
	Route string
	// Why is the declaration's fact.
	Why string
}

// Unserved lists the targets and aliases of f whose host does not serve
// their model by the profiles' `serves` declarations, in file order.
// mutate never prunes them (a checked route is always judged); lint
// reports them.
func Unserved(f *matrix.File, profiles map[string]*providers.Profile) []UnservedRoute {
	s := newServed(profiles)
	var out []UnservedRoute
	for _, c := range checkedRoutes(f) {
		if why := s.unserved(c.Route); why != "" {
			out = append(out, UnservedRoute{Name: c.Name, Line: c.Line, Route: c.Route.String(), Why: why})
		}
	}
	return out
}

// unreachable returns, for each probe, why no model answers it at its
// host, or "" when a user may take it. A target or alias is never pruned:
// [judge.judge] compares its decision, and replays its cells, before it
// looks at any probe, and a probe that equals it then decides as it does.
func unreachable(probes []engine.Route, s served) []string {
	out := make([]string, len(probes))
	for i, p := range probes {
		out[i] = s.unserved(p)
	}
	return out
}

// prunedProbes counts the unreachable probes whose decision a mutant
// changes, and keeps the first as the example its report names.
type prunedProbes struct {
	n      int
	route  engine.Route
	change string
	why    string
}

func (p *prunedProbes) add(r engine.Route, change, why string) {
	if p.n == 0 {
		p.route, p.change, p.why = r, change, why
	}
	p.n++
}

// equivalent completes an equivalent mutant whose only changed decisions
// are those of unreachable probes: it names the first, its change and the
// declaration that makes it unreachable.
func (p *prunedProbes) equivalent(out Judged, probes int) Judged {
	out.Route, out.Change = p.route.String(), p.change
	routes := "route decides"
	if p.n > 1 {
		routes = "routes decide"
	}
	out.Why = fmt.Sprintf("of %d routes, only %d %s differently, and no model answers any of them at its host: for %s, %s", probes, p.n, routes, out.Route, p.why)
	return out
}
