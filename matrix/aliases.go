package matrix

import (
	"net/url"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"go.yaml.in/yaml/v3"
)

// aliases reads a target's aliases: each a provider, base URL and model
// (the api mode is the target's). An alias repeating its target or
// another alias, or one the Anthropic policy serves on another platform
// (another request shape, which the target's cassettes do not hold), is
// refused.
func (w walker) aliases(n *yaml.Node, t Target, table *engine.Table) ([]Alias, error) {
	items, err := w.sequence(n, "target "+t.ID+" aliases")
	if err != nil {
		return nil, err
	}
	var out []Alias
	seen := map[engine.Route]bool{t.Route: true}
	for _, it := range items {
		m, err := w.mapping(it, "target "+t.ID+" alias", "provider", "base_url", "model", "note")
		if err != nil {
			return nil, err
		}
		a := Alias{Line: it.Line, Route: engine.Route{APIMode: t.Route.APIMode, EchoOptIn: t.Route.EchoOptIn}}
		what := "target " + t.ID + " alias"
		if a.Route.Provider, err = w.str(m["provider"], what+" provider"); err != nil {
			return nil, err
		}
		if a.Route.BaseURL, err = w.str(m["base_url"], what+" base_url"); err != nil {
			return nil, err
		}
		if a.Route.Model, err = w.str(m["model"], what+" model"); err != nil {
			return nil, err
		}
		if a.Note, err = w.str(m["note"], what+" note"); err != nil {
			return nil, err
		}
		for _, req := range [...]struct{ key, v string }{{"provider", a.Route.Provider}, {"base_url", a.Route.BaseURL}, {"model", a.Route.Model}, {"note", a.Note}} {
			if strings.TrimSpace(req.v) == "" {
				return nil, w.errf(it, "%s: missing %s", what, req.key)
			}
		}
		if u, perr := url.Parse(a.Route.BaseURL); perr != nil || u.Scheme == "" || u.Host == "" {
			return nil, w.errf(m["base_url"], "%s: base_url %q must be an absolute URL", what, a.Route.BaseURL)
		}
		if seen[a.Route] {
			return nil, w.errf(it, "%s: repeats the target or another alias (%s, %s, %s)", what, a.Route.Provider, a.Route.BaseURL, a.Route.Model)
		}
		seen[a.Route] = true
		if t.Route.APIMode == engine.ModeAnthropic {
			p := table.Dialects.Anthropic
			if got, want := p.Platform(a.Route.BaseURL, a.Route.Model), p.Platform(t.Route.BaseURL, t.Route.Model); got != want {
				return nil, w.errf(it, "%s: the %s platform serves it, but the target is on %s: an alias reaches the same endpoint, with the same request shape", what, got, want)
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// loadUnreachable reads the declarations of match entries no target or
// alias reaches: each names an entry of the table and gives a reason.
func loadUnreachable(w walker, top map[string]*yaml.Node, f *File) error {
	items, err := w.sequence(top["unreachable"], "unreachable")
	if err != nil {
		return err
	}
	for _, it := range items {
		m, err := w.mapping(it, "unreachable entry", "entry", "value", "reason")
		if err != nil {
			return err
		}
		u := Unreachable{Line: it.Line}
		if u.Entry, err = w.str(m["entry"], "unreachable entry"); err != nil {
			return err
		}
		if u.Value, err = w.str(m["value"], "unreachable value"); err != nil {
			return err
		}
		if u.Reason, err = w.str(m["reason"], "unreachable reason"); err != nil {
			return err
		}
		if strings.TrimSpace(u.Reason) == "" {
			return w.errf(it, "unreachable %s: %s: a reason is required", u.Entry, u.Value)
		}
		found := false
		for _, e := range f.Entries {
			found = found || e.Name() == u.Entry && e.Value == u.Value
		}
		if !found {
			return w.errf(it, "unreachable %s: %s: no such entry in the route table (entries are named like carrier_routes[strict].hosts)", u.Entry, u.Value)
		}
		for _, prev := range f.Unreachable {
			if prev.Entry == u.Entry && prev.Value == u.Value {
				return w.errf(it, "unreachable %s: %s: declared twice (first at line %d)", u.Entry, u.Value, prev.Line)
			}
		}
		f.Unreachable = append(f.Unreachable, u)
	}
	return nil
}
