package mutate

import (
	"net/netip"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
)

// An EntryCoverage says which checked routes reach one match entry, or
// that it is declared unreachable.
type EntryCoverage struct {
	Entry matrix.Entry
	// By names the targets and aliases that reach the entry: the entry
	// matches their route and its rule is the one that decides for it.
	By []string
	// Declared is the entry's unreachable declaration, when it has one.
	Declared *matrix.Unreachable
}

// Coverage is the coverage of every match entry of a table.
type Coverage []EntryCoverage

// Reached counts the entries some target or alias reaches.
func (c Coverage) Reached() int {
	n := 0
	for _, e := range c {
		if len(e.By) > 0 {
			n++
		}
	}
	return n
}

// Declared counts the entries nothing reaches that are declared
// unreachable.
func (c Coverage) Declared() int {
	n := 0
	for _, e := range c {
		if len(e.By) == 0 && e.Declared != nil {
			n++
		}
	}
	return n
}

// Missing returns the entries nothing reaches and nothing declares.
func (c Coverage) Missing() []matrix.Entry {
	var out []matrix.Entry
	for _, e := range c {
		if len(e.By) == 0 && e.Declared == nil {
			out = append(out, e.Entry)
		}
	}
	return out
}

// Cover returns the coverage of f's table by its targets and aliases.
func Cover(f *matrix.File) Coverage {
	routes := checkedRoutes(f)
	var out Coverage
	for _, e := range f.Entries {
		ec := EntryCoverage{Entry: e}
		for _, c := range routes {
			if reaches(&f.Table, e, c.Route) {
				ec.By = append(ec.By, c.Name)
			}
		}
		if u, ok := f.Declared(e); ok {
			ec.Declared = &u
		}
		out = append(out, ec)
	}
	return out
}

// reaches reports whether route r reaches entry e: the entry matches the
// route, and the entry's rule is the one that decides for it (the first
// matching rule of a first-match-wins list; any matching flag or native
// field rule).
func reaches(t *engine.Table, e matrix.Entry, r engine.Route) bool {
	if !entryMatches(e, r) {
		return false
	}
	mode := r.APIMode
	if mode == "" {
		mode = engine.ModeChat
	}
	switch e.List {
	case "echo_families":
		return t.EchoFamily(r) == e.Rule
	case "carrier_routes":
		return mode == engine.ModeChat && t.Decide(r, 0).Row == e.Rule
	case "local_endpoint":
		return mode == engine.ModeChat && t.Decide(r, 0).Row == "default-local"
	case "flags":
		return contains(t.Decide(r, 0).FlagIDs, e.Rule)
	case "native_fields":
		rule := t.NativeFields[e.Index]
		return rule.Match.MatchesRoute(strings.ToLower(strings.TrimSpace(r.Provider)), r.Host(), strings.ToLower(r.Model), r.BaseURL)
	case "anthropic.routes":
		return mode == engine.ModeAnthropic && t.Dialects.Anthropic.Decide(r.BaseURL, r.Model).Route == e.Rule
	case "anthropic.platforms":
		return mode == engine.ModeAnthropic && t.Dialects.Anthropic.Platform(r.BaseURL, r.Model) == e.Rule
	case "bedrock_converse.models":
		return mode == engine.ModeBedrockConverse && t.Dialects.Converse.For(r.Model).ID == e.Rule
	case "responses.families":
		f := t.Dialects.Responses.Family(r.Host())
		return mode == engine.ModeResponses && (f == e.Rule || strings.HasPrefix(f, e.Rule+"/"))
	}
	return false
}

// entryMatches reports whether one entry, on its own, matches the route.
func entryMatches(e matrix.Entry, r engine.Route) bool {
	host := r.Host()
	switch e.Key {
	case "providers_raw":
		return r.Provider == e.Value
	case "providers":
		return strings.ToLower(strings.TrimSpace(r.Provider)) == e.Value
	case "models":
		return strings.Contains(strings.ToLower(strings.TrimSpace(r.Model)), e.Value)
	case "hosts":
		return engine.Match{Hosts: []string{e.Value}}.Matches("", host, "")
	case "host_patterns":
		return engine.HostPatternMatches(host, e.Value)
	case "paths":
		return engine.EndpointMatch{Paths: []string{e.Value}}.Matches(r.BaseURL, "")
	case "hostnames":
		return host == e.Value
	case "suffixes":
		return strings.HasSuffix(host, e.Value)
	case "ranges":
		p, err := netip.ParsePrefix(e.Value)
		a, aerr := netip.ParseAddr(strings.Trim(host, "[]"))
		return err == nil && aerr == nil && p.Contains(a.Unmap())
	}
	return false
}
