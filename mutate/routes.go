package mutate

import (
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
)

// A checked route is a target's route or one of its aliases: a route whose
// cells the gate replays.
type checked struct {
	// Name is the target id, or the alias name ("kimi~1").
	Name   string
	Target matrix.Target
	// Alias is the alias index, or -1 for the target itself.
	Alias int
	Route engine.Route
	Line  int
}

// checkedRoutes lists the targets and their aliases, in file order.
func checkedRoutes(f *matrix.File) []checked {
	var out []checked
	for _, t := range f.Targets {
		out = append(out, checked{Name: t.ID, Target: t, Alias: -1, Route: t.Route, Line: t.Line})
		for i, a := range t.Aliases {
			out = append(out, checked{Name: t.AliasName(i), Target: t, Alias: i, Route: a.Route, Line: a.Line})
		}
	}
	return out
}

// Neutral values: a provider id, host and model no rule lists.
const (
	neutralProvider = "unlisted-provider"
	neutralHost     = "unlisted.example.com"
	neutralModel    = "unlisted-model"
)

// probes returns the routes by which the table can be reached, to tell a
// surviving mutant from an equivalent one: every checked route, and every
// checked route and a neutral route of each api mode (and each listed
// path) with one of its provider id, host, path or model replaced by a
// value the table names (each entry; each host pattern with its stars
// filled; a host's subdomain; a name under each local suffix; an address
// in each local range; Claude ids around each prior-thinking
// and adaptive-thinking threshold; in the two modes whose capability
// tables read Claude ids, Anthropic and Converse, each of claudeIDs, the
// Claude ids that exist), or by a custom, unlisted or dotless one; and
// every route a rule's own patterns reach ([ruleRoutes]). Realistic probes (a checked
// route with one part replaced) come first, so a survivor is shown with
// the nearest route a user takes.
func probes(f *matrix.File, claudeIDs []string) []engine.Route {
	var providers, hosts, paths, models []string
	add := func(list *[]string, vs ...string) { *list = append(*list, vs...) }
	add(&providers, "custom", neutralProvider)
	add(&hosts, neutralHost, "localhost", "127.0.0.1", "10.0.0.9", "192.168.1.2", "8.8.8.8", neutralDotless)
	add(&paths, "")
	add(&models, neutralModel)
	for _, e := range f.Entries {
		switch e.Key {
		case "providers", "providers_raw":
			add(&providers, e.Value, strings.ToUpper(e.Value))
		case "hosts", "hostnames":
			add(&hosts, e.Value, "api."+e.Value)
		case "host_patterns", "suffixes", "ranges":
			add(&hosts, entryHost(e))
		case "paths":
			add(&paths, e.Value)
		case "models":
			add(&models, e.Value, "probe/"+e.Value+"-1")
		}
	}
	pt := f.Table.Dialects.Anthropic.PriorThinking
	versions := []engine.ModelVersion{pt.DefaultKeepsFrom}
	for _, fam := range pt.Families {
		if fam.KeepsFrom != nil {
			versions = append(versions, *fam.KeepsFrom)
		}
	}
	// Claude ids around each adaptive-thinking threshold, and an
	// unversioned id of each family.
	for _, fam := range f.Table.Dialects.Anthropic.AdaptiveThinking.Families {
		add(&models, "claude-"+fam.Name+"-preview")
		if fam.From == nil {
			continue
		}
		for _, minor := range []int{fam.From.Minor - 1, fam.From.Minor, fam.From.Minor + 1} {
			major := fam.From.Major
			if minor < 0 {
				major, minor = major-1, 9
			}
			add(&models, fmt.Sprintf("claude-%s-%d-%d", fam.Name, major, minor))
		}
	}
	for _, fam := range pt.Families {
		for _, v := range versions {
			for _, minor := range []int{v.Minor - 1, v.Minor, v.Minor + 1} {
				major := v.Major
				if minor < 0 {
					major, minor = major-1, 9
				}
				add(&models, fmt.Sprintf("claude-%s-%d-%d", fam.Name, major, minor))
			}
		}
	}
	for _, g := range pt.NeverGenerations {
		add(&models, "claude-"+g+"-7-sonnet", "claude-"+g+"-opus")
	}
	seen := map[engine.Route]bool{}
	var out []engine.Route
	keep := func(r engine.Route) {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	vary := func(r engine.Route) {
		keep(r)
		scheme, host, path := split(r.BaseURL)
		for _, p := range providers {
			keep(engine.Route{APIMode: r.APIMode, Provider: p, BaseURL: r.BaseURL, Model: r.Model})
		}
		for _, h := range hosts {
			keep(engine.Route{APIMode: r.APIMode, Provider: r.Provider, BaseURL: scheme + h + path, Model: r.Model})
		}
		for _, p := range paths {
			keep(engine.Route{APIMode: r.APIMode, Provider: r.Provider, BaseURL: scheme + host + p, Model: r.Model})
		}
		for _, m := range models {
			keep(engine.Route{APIMode: r.APIMode, Provider: r.Provider, BaseURL: r.BaseURL, Model: m})
		}
		if r.APIMode == engine.ModeAnthropic || r.APIMode == engine.ModeBedrockConverse {
			for _, m := range claudeIDs {
				keep(engine.Route{APIMode: r.APIMode, Provider: r.Provider, BaseURL: r.BaseURL, Model: m})
			}
		}
	}
	for _, c := range checkedRoutes(f) {
		vary(c.Route)
	}
	for _, mode := range allModes {
		for _, p := range paths {
			vary(engine.Route{APIMode: mode, Provider: neutralProvider, BaseURL: "https://" + neutralHost + p, Model: neutralModel})
		}
	}
	for _, r := range ruleRoutes(f) {
		keep(r)
	}
	return out
}

// allModes are the api modes, in the order probes are built.
var allModes = []engine.APIMode{engine.ModeChat, engine.ModeAnthropic, engine.ModeBedrockConverse, engine.ModeGemini, engine.ModeResponses}

// neutralDotless is a hostname without a dot that no rule lists, as a
// docker-compose service name is.
const neutralDotless = "unlisted-service"

// entryHost is a hostname a host-like entry matches: a host pattern with
// each star filled, a name under a local suffix, the first address of a
// range after its network address; "" for any other entry.
func entryHost(e matrix.Entry) string {
	switch e.Key {
	case "hosts", "hostnames":
		return e.Value
	case "host_patterns":
		return strings.ReplaceAll(e.Value, "*", "probe-1")
	case "suffixes":
		return "probe" + e.Value
	case "ranges":
		if p, err := netip.ParsePrefix(e.Value); err == nil {
			return p.Masked().Addr().Next().String()
		}
	}
	return ""
}

// ruleRoutes returns, for each rule of the table, the routes its own
// patterns reach: every combination of one of its provider ids or hosts
// (a host pattern with its stars filled, a name under a suffix, an address
// in a range; a neutral host when it names none), one of its paths and
// one of its model substrings (a neutral model when it names none), in
// each api mode the rule decides for. Varying one part of a target at a
// time never builds a route that needs all of a rule's groups at once (a
// provider id, a path and a model no other rule claims, as a tuned
// Vertex endpoint is), so a mutant that changes only such a route would
// be called equivalent.
func ruleRoutes(f *matrix.File) []engine.Route {
	type rule struct {
		list             string
		providers, hosts []string
		paths, models    []string
	}
	var rules []*rule
	byKey := map[string]*rule{}
	for _, e := range f.Entries {
		k := e.List + "\x00" + strconv.Itoa(e.Index)
		r := byKey[k]
		if r == nil {
			r = &rule{list: e.List}
			byKey[k] = r
			rules = append(rules, r)
		}
		switch e.Key {
		case "providers", "providers_raw":
			r.providers = append(r.providers, e.Value)
		case "paths":
			r.paths = append(r.paths, e.Value)
		case "models":
			r.models = append(r.models, e.Value)
		default:
			if h := entryHost(e); h != "" {
				r.hosts = append(r.hosts, h)
			}
		}
	}
	var out []engine.Route
	for _, r := range rules {
		type who struct{ provider, host string }
		var whos []who
		for _, p := range r.providers {
			whos = append(whos, who{p, neutralHost})
		}
		for _, h := range r.hosts {
			whos = append(whos, who{neutralProvider, h})
		}
		if len(whos) == 0 {
			whos = []who{{neutralProvider, neutralHost}}
		}
		paths, models := r.paths, r.models
		if len(paths) == 0 {
			paths = []string{""}
		}
		if len(models) == 0 {
			models = []string{neutralModel}
		}
		modes := listModes(r.list)
		for _, m := range modes {
			for _, w := range whos {
				for _, p := range paths {
					for _, model := range models {
						out = append(out, engine.Route{APIMode: m, Provider: w.provider, BaseURL: "https://" + w.host + p, Model: model})
					}
				}
			}
		}
	}
	return out
}

// listModes are the api modes a rule list decides for: a native dialect's
// lists its own mode, the carrier rows, local rule, flags and native
// fields chat, the must-echo families every mode.
func listModes(list string) []engine.APIMode {
	if m := sectionModes(sectionOf(list)); m != nil {
		var out []engine.APIMode
		for _, mode := range allModes {
			if m[mode] {
				out = append(out, mode)
			}
		}
		return out
	}
	return allModes
}

// split cuts a base URL into its scheme ("https://"), host (with any port)
// and path.
func split(baseURL string) (scheme, host, path string) {
	u, err := url.Parse(baseURL)
	if err != nil || u.Host == "" {
		return "https://", neutralHost, ""
	}
	port := ""
	if p := u.Port(); p != "" {
		port = ":" + p
	}
	return u.Scheme + "://", u.Hostname() + port, u.EscapedPath()
}
