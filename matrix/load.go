package matrix

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/internal/yamltext"
	"go.yaml.in/yaml/v3"
)

// A File is a loaded matrix.yaml.
type File struct {
	// Path is the file the table was loaded from.
	Path string
	// Table is the route table the engine decides with.
	Table engine.Table
	// Targets are the endpoints the table is checked against, in file order.
	Targets []Target
	// KnownFailures are the cells declared as failing, with their reasons.
	KnownFailures []KnownFailure
	// Advisories are the cells declared as advisory (the route sends less
	// reasoning than the provider reads), with their reasons; an advisory
	// cell not declared fails.
	Advisories []KnownFailure
	// Entries are the match entries of the route table, in file order.
	Entries []Entry
	// Unreachable are the entries declared as reached by no target or
	// alias, each with its reason.
	Unreachable []Unreachable
	// Survivors are the mutants declared to survive for want of a
	// published recording, each with the recording it needs.
	Survivors []Survivor
}

// A Target is one concrete endpoint: an id, a route and the provider
// profile that describes it.
type Target struct {
	ID      string
	Route   engine.Route
	Profile string
	// Line is the line of the target in matrix.yaml.
	Line int
	// Aliases are the other routes by which users reach the same endpoint;
	// each is judged against the target's cassettes.
	Aliases []Alias
}

// An Alias is another (provider id, base URL, model) by which users reach
// a target's endpoint: a custom provider id with the provider's host, the
// provider's id with a proxy host, an aggregator's model id. Its api mode
// is the target's.
type Alias struct {
	Route engine.Route
	// Note says who reaches the endpoint this way.
	Note string
	// Line is the line of the alias in matrix.yaml.
	Line int
}

// AliasName names the target's alias i by the target and position: "kimi~1".
func (t Target) AliasName(i int) string { return t.ID + "~" + strconv.Itoa(i+1) }

// An Unreachable declares that no target or alias reaches a match entry,
// and why.
type Unreachable struct {
	// Entry is the entry's list name ("echo_families[kimi].hosts") and
	// Value its value ("moonshot.ai").
	Entry, Value string
	Reason       string
	Line         int
}

// Declared returns the unreachable declaration of an entry, if any.
func (f *File) Declared(e Entry) (Unreachable, bool) {
	for _, u := range f.Unreachable {
		if u.Entry == e.Name() && u.Value == e.Value {
			return u, true
		}
	}
	return Unreachable{}, false
}

// A KnownFailure declares that a cell is expected to fail, and why. A
// known failure is still run; it fails the build if it starts passing.
// The same declaration under advisories: says a cell is expected to be
// advisory: the route sends less reasoning than its provider reads, on
// purpose.
type KnownFailure struct {
	Target   string
	Scenario string
	Reason   string
	// Cause pins a known failure to what it was declared for: a phrase of
	// the failure's evidence (the provider's error, or what the scenario
	// expected or saw), such as `Unknown name "reasoning_content"`. A known
	// failure that fails for another cause fails. One without (a table
	// written before causes were) excuses any failure, and lint names it.
	// Advisories have none.
	Cause string
	Line  int
}

// Alias returns the target and the index of the alias a name such as
// "deepseek~1" (see [Target.AliasName]) names.
func (f *File) Alias(name string) (Target, int, bool) {
	id, n, ok := strings.Cut(name, "~")
	if !ok {
		return Target{}, 0, false
	}
	t, ok := f.Target(id)
	i, err := strconv.Atoi(n)
	if !ok || err != nil || i < 1 || i > len(t.Aliases) || strconv.Itoa(i) != n {
		return Target{}, 0, false
	}
	return t, i - 1, true
}

// Target returns the target with the given id.
func (f *File) Target(id string) (Target, bool) {
	for _, t := range f.Targets {
		if t.ID == id {
			return t, true
		}
	}
	return Target{}, false
}

// KnownFailure returns the known-failure declaration of a cell, if any.
func (f *File) KnownFailure(target, scenario string) (KnownFailure, bool) {
	return declared(f.KnownFailures, target, scenario)
}

// Advisory returns the advisory declaration of a cell, if any.
func (f *File) Advisory(target, scenario string) (KnownFailure, bool) {
	return declared(f.Advisories, target, scenario)
}

// declared returns the declaration of a cell in list, if any.
func declared(list []KnownFailure, target, scenario string) (KnownFailure, bool) {
	for _, k := range list {
		if k.Target == target && k.Scenario == scenario {
			return k, true
		}
	}
	return KnownFailure{}, false
}

// Load reads and validates a matrix.yaml file.
func Load(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("matrix: %w", err)
	}
	return Parse(path, b)
}

var (
	kebab      = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	hostSyntax = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$`)
)

// Parse validates a matrix.yaml document; name is used in error positions.
func Parse(name string, b []byte) (*File, error) {
	f, err := parse(name, b)
	return f, yamltext.Truncated(b, err)
}

// parseTop decodes a document of version 1 whose top level is a mapping
// of the keys allowed (what names it in errors), and returns its walker
// and top-level sections.
func parseTop(name string, b []byte, what string, allowed ...string) (walker, map[string]*yaml.Node, error) {
	if err := yamltext.Check(name, b); err != nil {
		return walker{}, nil, err
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			// The decoder reports a file with no document (empty, or
			// only comments) as end of input.
			return walker{}, nil, fmt.Errorf("%s: empty document", name)
		}
		return walker{}, nil, fmt.Errorf("%s: %w", name, yamltext.Position(err, b))
	}
	if len(doc.Content) == 0 {
		return walker{}, nil, fmt.Errorf("%s: empty document", name)
	}
	w := walker{file: name, root: doc.Content[0]}
	top, err := w.mapping(w.root, what, allowed...)
	if err != nil {
		return w, nil, err
	}
	if v, ok := top["version"]; !ok || v.Value != "1" || v.Tag != "!!int" {
		return w, nil, w.errf(w.root, "version must be 1 (the format of this file)")
	}
	return w, top, nil
}

func parse(name string, b []byte) (*File, error) {
	w, top, err := parseTop(name, b, "matrix", topKeys...)
	if err != nil {
		return nil, err
	}
	f := &File{Path: name}
	for _, step := range []func(walker, map[string]*yaml.Node, *File) error{
		loadEcho, loadRows, loadLocal, loadDefault, loadFlags, loadNativeFields, loadDialects, loadTargets, loadKnownFailures, loadAdvisories, loadSurvivors,
	} {
		if err := step(w, top, f); err != nil {
			return nil, err
		}
	}
	f.Entries = entries(w.root)
	if err := loadUnreachable(w, top, f); err != nil {
		return nil, err
	}
	return f, nil
}

var topKeys = []string{"version", "echo_families", "carrier_routes", "local_endpoint", "default_carriers",
	"flags", "native_fields", "anthropic", "bedrock_converse", "responses", "targets", "known_failures", "advisories", "unreachable", "survivors"}

func (w walker) carriers(n *yaml.Node, what string) (engine.CarrierSet, error) {
	names, err := w.strings(n, what)
	if err != nil {
		return 0, err
	}
	var s engine.CarrierSet
	items, _ := w.sequence(n, what)
	for i, name := range names {
		c, err := engine.ParseCarrier(name)
		if err != nil || string(c) != name {
			return 0, w.errf(items[i], "%s: unknown carrier %q (want reasoning_content, reasoning or reasoning_details)", what, name)
		}
		s = s.With(c)
	}
	return s, nil
}

func (w walker) hosts(n *yaml.Node, what string) ([]string, error) {
	hs, err := w.strings(n, what)
	if err != nil {
		return nil, err
	}
	items, _ := w.sequence(n, what)
	for i, h := range hs {
		if !hostSyntax.MatchString(h) {
			return nil, w.errf(items[i], "%s: bad host %q (want a lower-case hostname without scheme, port or path)", what, h)
		}
	}
	return hs, nil
}

func (w walker) lowerList(n *yaml.Node, what string) ([]string, error) {
	vs, err := w.strings(n, what)
	if err != nil {
		return nil, err
	}
	items, _ := w.sequence(n, what)
	for i, v := range vs {
		if v != strings.ToLower(strings.TrimSpace(v)) {
			return nil, w.errf(items[i], "%s: %q must be lower-case and trimmed (matching is case-insensitive)", what, v)
		}
	}
	return vs, nil
}

func loadEcho(w walker, top map[string]*yaml.Node, f *File) error {
	items, err := w.sequence(top["echo_families"], "echo_families")
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, it := range items {
		m, err := w.mapping(it, "echo family", "name", "providers_raw", "providers", "models", "hosts")
		if err != nil {
			return err
		}
		var fam engine.EchoFamily
		if fam.Name, err = w.str(m["name"], "echo family name"); err != nil {
			return err
		}
		if !kebab.MatchString(fam.Name) {
			return w.errf(it, "echo family: name %q must be kebab-case", fam.Name)
		}
		if seen[fam.Name] {
			return w.errf(m["name"], "echo family: duplicate name %q", fam.Name)
		}
		seen[fam.Name] = true
		if fam.ProvidersRaw, err = w.strings(m["providers_raw"], "echo family "+fam.Name+" providers_raw"); err != nil {
			return err
		}
		if fam.Providers, err = w.lowerList(m["providers"], "echo family "+fam.Name+" providers"); err != nil {
			return err
		}
		if fam.ModelSubstrings, err = w.lowerList(m["models"], "echo family "+fam.Name+" models"); err != nil {
			return err
		}
		if fam.Hosts, err = w.hosts(m["hosts"], "echo family "+fam.Name+" hosts"); err != nil {
			return err
		}
		if len(fam.ProvidersRaw)+len(fam.Providers)+len(fam.ModelSubstrings)+len(fam.Hosts) == 0 {
			return w.errf(it, "echo family %s: empty match (give providers, models or hosts)", fam.Name)
		}
		f.Table.EchoFamilies = append(f.Table.EchoFamilies, fam)
	}
	return nil
}

func loadRows(w walker, top map[string]*yaml.Node, f *File) error {
	items, err := w.sequence(top["carrier_routes"], "carrier_routes")
	if err != nil {
		return err
	}
	seen := map[string]bool{"default": true, "default-local": true, "native": true}
	for _, it := range items {
		m, err := w.mapping(it, "carrier route", "id", "carriers", "providers", "hosts", "note")
		if err != nil {
			return err
		}
		var row engine.CarrierRow
		if row.ID, err = w.str(m["id"], "carrier route id"); err != nil {
			return err
		}
		if !kebab.MatchString(row.ID) {
			return w.errf(it, "carrier route: id %q must be kebab-case", row.ID)
		}
		if seen[row.ID] {
			return w.errf(m["id"], "carrier route: duplicate or reserved id %q", row.ID)
		}
		seen[row.ID] = true
		if m["carriers"] == nil {
			return w.errf(it, "carrier route %s: missing carriers (use [] for none)", row.ID)
		}
		if row.Carriers, err = w.carriers(m["carriers"], "carrier route "+row.ID+" carriers"); err != nil {
			return err
		}
		if row.Providers, err = w.lowerList(m["providers"], "carrier route "+row.ID+" providers"); err != nil {
			return err
		}
		if row.Hosts, err = w.hosts(m["hosts"], "carrier route "+row.ID+" hosts"); err != nil {
			return err
		}
		if len(row.Providers)+len(row.Hosts) == 0 {
			return w.errf(it, "carrier route %s: empty match (give providers or hosts)", row.ID)
		}
		f.Table.Rows = append(f.Table.Rows, row)
	}
	return nil
}

func loadLocal(w walker, top map[string]*yaml.Node, f *File) error {
	n := top["local_endpoint"]
	if n == nil {
		return nil
	}
	m, err := w.mapping(n, "local_endpoint", "carriers", "hostnames", "suffixes", "private_addresses", "dotless_hostnames", "ranges")
	if err != nil {
		return err
	}
	l := &f.Table.Local
	if l.Carriers, err = w.carriers(m["carriers"], "local_endpoint carriers"); err != nil {
		return err
	}
	if l.Hostnames, err = w.hosts(m["hostnames"], "local_endpoint hostnames"); err != nil {
		return err
	}
	if l.Suffixes, err = w.lowerList(m["suffixes"], "local_endpoint suffixes"); err != nil {
		return err
	}
	items, _ := w.sequence(m["suffixes"], "")
	for i, s := range l.Suffixes {
		if !strings.HasPrefix(s, ".") || !hostSyntax.MatchString(s[1:]) {
			return w.errf(items[i], "local_endpoint suffixes: %q must look like .local", s)
		}
	}
	if l.PrivateAddresses, err = w.boolean(m["private_addresses"], "local_endpoint private_addresses"); err != nil {
		return err
	}
	if l.Dotless, err = w.boolean(m["dotless_hostnames"], "local_endpoint dotless_hostnames"); err != nil {
		return err
	}
	ranges, err := w.lowerList(m["ranges"], "local_endpoint ranges")
	if err != nil {
		return err
	}
	items, _ = w.sequence(m["ranges"], "")
	for i, r := range ranges {
		pfx, err := netip.ParsePrefix(r)
		if err != nil || pfx != pfx.Masked() {
			return w.errf(items[i], "local_endpoint ranges: %q is not an address range like 100.64.0.0/10", r)
		}
		l.Ranges = append(l.Ranges, pfx)
	}
	return nil
}

func loadDefault(w walker, top map[string]*yaml.Node, f *File) error {
	if top["default_carriers"] == nil {
		return w.errf(w.root, "missing default_carriers")
	}
	var err error
	f.Table.Default, err = w.carriers(top["default_carriers"], "default_carriers")
	return err
}

// match reads the providers/hosts/models keys of m.
func (w walker) match(m map[string]*yaml.Node, what string) (engine.Match, error) {
	var mt engine.Match
	var err error
	if mt.Providers, err = w.lowerList(m["providers"], what+" providers"); err != nil {
		return mt, err
	}
	if mt.Hosts, err = w.hosts(m["hosts"], what+" hosts"); err != nil {
		return mt, err
	}
	if mt.Models, err = w.lowerList(m["models"], what+" models"); err != nil {
		return mt, err
	}
	return mt, nil
}

// reservedRequestKeys are top-level request keys a flag may not set.
var reservedRequestKeys = []string{"model", "messages", "tools", "stream", "contents", "system"}

var flagPath = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

func loadFlags(w walker, top map[string]*yaml.Node, f *File) error {
	items, err := w.sequence(top["flags"], "flags")
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, it := range items {
		m, err := w.mapping(it, "flag", "id", "providers", "hosts", "models", "set", "source")
		if err != nil {
			return err
		}
		var fr engine.FlagRule
		if fr.ID, err = w.str(m["id"], "flag id"); err != nil {
			return err
		}
		if !kebab.MatchString(fr.ID) || seen[fr.ID] {
			return w.errf(it, "flag: id %q must be kebab-case and unique", fr.ID)
		}
		seen[fr.ID] = true
		if fr.Match, err = w.match(m, "flag "+fr.ID); err != nil {
			return err
		}
		if len(fr.Match.Providers)+len(fr.Match.Hosts)+len(fr.Match.Models) == 0 {
			return w.errf(it, "flag %s: empty match (give providers, hosts or models)", fr.ID)
		}
		if src, _ := w.str(m["source"], "flag source"); strings.TrimSpace(src) == "" {
			return w.errf(it, "flag %s: missing source", fr.ID)
		}
		sets, err := w.sequence(m["set"], "flag "+fr.ID+" set")
		if err != nil {
			return err
		}
		if len(sets) == 0 {
			return w.errf(it, "flag %s: nothing to set", fr.ID)
		}
		for _, s := range sets {
			sm, err := w.mapping(s, "flag "+fr.ID+" setting", "path", "value")
			if err != nil {
				return err
			}
			path, err := w.str(sm["path"], "flag setting path")
			if err != nil {
				return err
			}
			if !flagPath.MatchString(path) {
				return w.errf(s, "flag %s: bad path %q (want dot-separated keys)", fr.ID, path)
			}
			head, _, _ := strings.Cut(path, ".")
			for _, r := range reservedRequestKeys {
				if head == r {
					return w.errf(s, "flag %s: path %q would overwrite the request's %s", fr.ID, path, r)
				}
			}
			if sm["value"] == nil || sm["value"].Tag == "!!null" {
				return w.errf(s, "flag %s: setting %s has no value", fr.ID, path)
			}
			var v any
			if err := sm["value"].Decode(&v); err != nil {
				return w.errf(sm["value"], "flag %s: %v", fr.ID, err)
			}
			raw, err := json.Marshal(v)
			if err != nil {
				return w.errf(sm["value"], "flag %s: value is not JSON-representable: %v", fr.ID, err)
			}
			fr.Set = append(fr.Set, engine.FlagSetting{Path: path, Value: raw})
		}
		f.Table.Flags = append(f.Table.Flags, fr)
	}
	return nil
}

func loadNativeFields(w walker, top map[string]*yaml.Node, f *File) error {
	items, err := w.sequence(top["native_fields"], "native_fields")
	if err != nil {
		return err
	}
	for _, it := range items {
		m, err := w.mapping(it, "native field rule", "field", "providers", "hosts", "host_patterns", "paths", "models")
		if err != nil {
			return err
		}
		var r engine.NativeFieldRule
		if r.Field, err = w.str(m["field"], "native field"); err != nil {
			return err
		}
		if r.Field != engine.NativeGemini && r.Field != engine.NativeCopilot {
			return w.errf(it, "native field rule: unknown field %q (want %s or %s)", r.Field, engine.NativeGemini, engine.NativeCopilot)
		}
		if r.Match, err = w.match(m, "native field "+r.Field); err != nil {
			return err
		}
		if r.Match.HostPatterns, r.Match.Paths, err = w.patternsAndPaths(m, "native field "+r.Field); err != nil {
			return err
		}
		if len(r.Match.Providers)+len(r.Match.Hosts)+len(r.Match.Models) == 0 {
			return w.errf(it, "native field rule %s: empty match", r.Field)
		}
		f.Table.NativeFields = append(f.Table.NativeFields, r)
	}
	return nil
}

func loadTargets(w walker, top map[string]*yaml.Node, f *File) error {
	items, err := w.sequence(top["targets"], "targets")
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, it := range items {
		m, err := w.mapping(it, "target", "id", "api_mode", "provider", "base_url", "model", "profile", "echo_opt_in", "note", "aliases")
		if err != nil {
			return err
		}
		t := Target{Line: it.Line}
		if t.ID, err = w.str(m["id"], "target id"); err != nil {
			return err
		}
		if !kebab.MatchString(t.ID) {
			return w.errf(it, "target: id %q must be kebab-case", t.ID)
		}
		if seen[t.ID] {
			return w.errf(m["id"], "target: duplicate id %q", t.ID)
		}
		seen[t.ID] = true
		mode, err := w.str(m["api_mode"], "target api_mode")
		if err != nil {
			return err
		}
		am, ok := engine.ParseAPIMode(mode)
		if !ok {
			return w.errf(m["api_mode"], "target %s: unknown api_mode %q", t.ID, mode)
		}
		t.Route.APIMode = am
		if t.Route.Provider, err = w.str(m["provider"], "target provider"); err != nil {
			return err
		}
		if t.Route.BaseURL, err = w.str(m["base_url"], "target base_url"); err != nil {
			return err
		}
		if u, perr := url.Parse(t.Route.BaseURL); perr != nil || u.Scheme == "" || u.Host == "" {
			return w.errf(m["base_url"], "target %s: base_url %q must be an absolute URL", t.ID, t.Route.BaseURL)
		}
		if t.Route.Model, err = w.str(m["model"], "target model"); err != nil {
			return err
		}
		if t.Profile, err = w.str(m["profile"], "target profile"); err != nil {
			return err
		}
		if t.Route.EchoOptIn, err = w.boolean(m["echo_opt_in"], "target echo_opt_in"); err != nil {
			return err
		}
		for _, req := range [...]struct{ key, v string }{{"provider", t.Route.Provider}, {"model", t.Route.Model}, {"profile", t.Profile}} {
			if strings.TrimSpace(req.v) == "" {
				return w.errf(it, "target %s: missing %s", t.ID, req.key)
			}
		}
		if t.Aliases, err = w.aliases(m["aliases"], t, &f.Table); err != nil {
			return err
		}
		f.Targets = append(f.Targets, t)
	}
	return nil
}

func loadKnownFailures(w walker, top map[string]*yaml.Node, f *File) error {
	list, err := loadDeclarations(w, f, top["known_failures"], "known_failures", "known failure", true)
	f.KnownFailures = list
	return err
}

func loadAdvisories(w walker, top map[string]*yaml.Node, f *File) error {
	list, err := loadDeclarations(w, f, top["advisories"], "advisories", "advisory", false)
	f.Advisories = list
	return err
}

// loadDeclarations reads a list of cell declarations (section, each a
// what): a target of f, a scenario and a reason, each cell once, and with
// withCause the cause the failure is pinned to.
func loadDeclarations(w walker, f *File, n *yaml.Node, section, what string, withCause bool) ([]KnownFailure, error) {
	items, err := w.sequence(n, section)
	if err != nil {
		return nil, err
	}
	var out []KnownFailure
	for _, it := range items {
		keys := []string{"target", "scenario", "reason"}
		if withCause {
			keys = append(keys, "cause")
		}
		m, err := w.mapping(it, what, keys...)
		if err != nil {
			return nil, err
		}
		k := KnownFailure{Line: it.Line}
		if withCause {
			k.Cause, _ = w.str(m["cause"], what+" cause")
		}
		k.Target, _ = w.str(m["target"], what+" target")
		k.Scenario, _ = w.str(m["scenario"], what+" scenario")
		k.Reason, _ = w.str(m["reason"], what+" reason")
		_, target := f.Target(k.Target)
		if _, _, alias := f.Alias(k.Target); !target && !alias {
			return nil, w.errf(it, "%s: unknown target %q (want a target's id, or an alias's name: id~N)", what, k.Target)
		}
		if !IsScenario(k.Scenario) {
			return nil, w.errf(it, "%s: unknown scenario %q (want one of %s)", what, k.Scenario, strings.Join(Scenarios, ", "))
		}
		if strings.TrimSpace(k.Reason) == "" {
			return nil, w.errf(it, "%s %s/%s: a reason is required", what, k.Target, k.Scenario)
		}
		if _, dup := declared(out, k.Target, k.Scenario); dup {
			return nil, w.errf(it, "%s %s/%s: declared twice", what, k.Target, k.Scenario)
		}
		out = append(out, k)
	}
	return out, nil
}
