package engine

import (
	"encoding/json"
	"net/netip"
	"slices"
	"strings"
)

// A Table is the route table of SPEC §2–§3 as data: it is loaded from
// matrix.yaml and no route fact lives in Go code. The zero Table decides
// "no carriers" for every route.
type Table struct {
	// EchoFamilies is the must-echo tier (§2.2), in match order.
	EchoFamilies []EchoFamily
	// Rows are the carrier routes (§2.3); the first matching row wins.
	Rows []CarrierRow
	// Local is the rule for local endpoints that match no row.
	Local LocalRule
	// Default is the carrier set of a remote route that matches no row.
	Default CarrierSet
	// Flags are the vendor keep-thinking flags (§3.4).
	Flags []FlagRule
	// NativeFields says which routes read which private native fields (§3.3).
	NativeFields []NativeFieldRule
	// Dialects holds the native dialects' route data (§4), keyed by api mode.
	Dialects DialectPolicies
}

// An EchoFamily is one must-echo family: it matches on a raw provider id,
// a lower-cased provider id, a model substring or a host.
type EchoFamily struct {
	Name            string
	ProvidersRaw    []string
	Providers       []string
	ModelSubstrings []string
	Hosts           []string
}

// matches applies the family's four columns, any of which suffices.
func (f EchoFamily) matches(provider, lowerProvider, lowerModel, host string) bool {
	for _, p := range f.ProvidersRaw {
		if provider == p {
			return true
		}
	}
	for _, p := range f.Providers {
		if lowerProvider == p {
			return true
		}
	}
	for _, m := range f.ModelSubstrings {
		if strings.Contains(lowerModel, m) {
			return true
		}
	}
	return hostMatchesAny(host, f.Hosts)
}

// A CarrierRow is one carrier route: it matches on a provider id or a host.
type CarrierRow struct {
	ID        string
	Carriers  CarrierSet
	Providers []string
	Hosts     []string
}

func (r CarrierRow) matches(lowerProvider, host string) bool {
	for _, p := range r.Providers {
		if lowerProvider == p {
			return true
		}
	}
	return hostMatchesAny(host, r.Hosts)
}

// LocalRule describes local endpoints: routes that match no row but point at
// a local server read Carriers.
type LocalRule struct {
	Carriers         CarrierSet
	Hostnames        []string
	Suffixes         []string
	PrivateAddresses bool
	// Dotless makes a hostname without a dot local: a docker-compose
	// service or a container name (http://vllm:8000) resolves only on the
	// machine's own network.
	Dotless bool
	// Ranges are further address ranges that are local (the Tailscale
	// CGNAT range 100.64.0.0/10).
	Ranges []netip.Prefix
}

// A Match selects routes: when Providers, Hosts or HostPatterns are given,
// the lower-cased provider id must be one of Providers or the host must
// match one of Hosts or HostPatterns; when Models are given, the
// lower-cased model must contain one of them. Both groups must hold, and
// [Match.MatchesRoute] also checks Paths.
type Match struct {
	Providers []string
	Hosts     []string
	// HostPatterns are host patterns as in [EndpointMatch] ("*" for part
	// of one label: "*-aiplatform.googleapis.com").
	HostPatterns []string
	Models       []string
	// Paths, when given, must hold for the route's base URL: one of them
	// is a run of its whole path segments (as in [EndpointMatch]).
	Paths []string
}

// MatchesRoute applies the match, paths included, to a route.
func (m Match) MatchesRoute(lowerProvider, host, lowerModel, baseURL string) bool {
	if !m.Matches(lowerProvider, host, lowerModel) {
		return false
	}
	if len(m.Paths) == 0 {
		return true
	}
	segs := pathSegments(baseURL)
	for _, p := range m.Paths {
		if containsRun(segs, strings.Split(strings.Trim(p, "/"), "/")) {
			return true
		}
	}
	return false
}

// Matches applies the match to a route, leaving out Paths.
func (m Match) Matches(lowerProvider, host, lowerModel string) bool {
	if len(m.Providers) > 0 || len(m.Hosts) > 0 || len(m.HostPatterns) > 0 {
		ok := hostMatchesAny(host, m.Hosts)
		for _, hp := range m.HostPatterns {
			ok = ok || HostPatternMatches(host, hp)
		}
		for _, p := range m.Providers {
			ok = ok || lowerProvider == p
		}
		if !ok {
			return false
		}
	}
	if len(m.Models) > 0 {
		for _, s := range m.Models {
			if strings.Contains(lowerModel, s) {
				return true
			}
		}
		return false
	}
	return true
}

// A FlagRule adds request-body fields on the routes it matches (§3.4).
type FlagRule struct {
	ID    string
	Match Match
	Set   []FlagSetting
}

// A FlagSetting is one request-body field: a dot path (sjson syntax, plain
// keys only) and its JSON value.
type FlagSetting struct {
	Path  string
	Value json.RawMessage
}

// Native private fields a route may read (§3.3).
const (
	// NativeGemini is the Gemini thought signature: message-level and per
	// tool call extra_content.google.thought_signature.
	NativeGemini = "gemini"
	// NativeCopilot is Copilot's reasoning_opaque, reasoning_text and the
	// per-call function.thought_signature.
	NativeCopilot = "copilot"
)

// A NativeFieldRule says that routes matching Match read the private native
// field group Field (NativeGemini or NativeCopilot).
type NativeFieldRule struct {
	Field string
	Match Match
}

// A Decision is the outcome of the route decision (§2) for one route: what
// the wire copy of the history may carry.
type Decision struct {
	Route Route
	// Row is the id of the matching carrier row, or "default-local" /
	// "default"; for non-chat api modes it is "native".
	Row string
	// EchoFamily is the matching must-echo family, or "".
	EchoFamily string
	// Pad is true when RC must be present (at least " ") on every assistant
	// message: opt-in or a must-echo family, and RC is a carrier.
	Pad bool
	// Carriers are the standard carriers the route reads, after subtracting
	// recorded rejections. Native api modes read none of them.
	Carriers CarrierSet
	// Native is true for non-chat api modes, whose dialect owns replay.
	Native bool
	// PriorThinking is, on native routes, whether earlier turns' readable
	// thinking reaches the wire (the dialect policy's answer).
	PriorThinking bool
	// Flags are the vendor flags to set on the request, in table order.
	Flags []FlagSetting
	// FlagIDs names the flag rules that matched.
	FlagIDs []string
	// NativeFields are the private native field groups the route reads, sorted.
	NativeFields []string
	// Rejected is the set of carriers subtracted because they were recorded
	// as refused for this route.
	Rejected CarrierSet
	// Reasons explains each part of the decision in words.
	Reasons []string
}

// ReadsNative reports whether the route reads the native field group f.
func (d Decision) ReadsNative(f string) bool {
	for _, n := range d.NativeFields {
		if n == f {
			return true
		}
	}
	return false
}

// EchoFamily returns the first must-echo family matching the route, or "".
func (t *Table) EchoFamily(r Route) string {
	lp := strings.ToLower(strings.TrimSpace(r.Provider))
	lm := strings.ToLower(r.Model)
	host := r.Host()
	for _, f := range t.EchoFamilies {
		if f.matches(r.Provider, lp, lm, host) {
			return f.Name
		}
	}
	return ""
}

// Decide applies the route table to a route, given the carriers already
// recorded as refused for it (SPEC §2). The result depends only on its
// inputs, so the wire prefix stays byte-stable turn after turn.
func (t *Table) Decide(r Route, rejected CarrierSet) Decision {
	if r.APIMode == "" {
		r.APIMode = ModeChat
	}
	d := Decision{Route: r, NativeFields: []string{}}
	lp := strings.ToLower(strings.TrimSpace(r.Provider))
	lm := strings.ToLower(r.Model)
	host := r.Host()

	d.EchoFamily = t.EchoFamily(r)
	pad := r.EchoOptIn || d.EchoFamily != ""
	switch {
	case d.EchoFamily != "":
		d.Reasons = append(d.Reasons, "must-echo family "+d.EchoFamily+" matches")
	case r.EchoOptIn:
		d.Reasons = append(d.Reasons, "echo opt-in is set")
	}

	for _, f := range t.Flags {
		if f.Match.Matches(lp, host, lm) {
			d.Flags = append(d.Flags, f.Set...)
			d.FlagIDs = append(d.FlagIDs, f.ID)
			d.Reasons = append(d.Reasons, "vendor flag "+f.ID+" applies")
		}
	}
	seen := map[string]bool{}
	for _, n := range t.NativeFields {
		if !seen[n.Field] && n.Match.MatchesRoute(lp, host, lm, r.BaseURL) {
			seen[n.Field] = true
			d.NativeFields = append(d.NativeFields, n.Field)
			d.Reasons = append(d.Reasons, "route reads the private "+n.Field+" fields")
		}
	}
	slices.Sort(d.NativeFields)

	if r.APIMode != ModeChat {
		d.Native = true
		d.Row = "native"
		d.Pad = pad
		d.PriorThinking = t.Dialects.priorThinking(r)
		d.Reasons = append(d.Reasons, "api mode "+string(r.APIMode)+" replays through its own dialect")
		if r.APIMode == ModeResponses {
			d.Reasons = append(d.Reasons, "reasoning items are replayed only to their issuing family: this route's is "+t.Dialects.Responses.Family(host)+", model "+strings.TrimSpace(r.Model))
		}
		return d
	}

	carriers, row := t.carrierRoute(lp, host)
	d.Row = row
	switch row {
	case "default-local":
		d.Reasons = append(d.Reasons, "no row matches and "+host+" is a local endpoint: "+carriers.String())
	case "default":
		d.Reasons = append(d.Reasons, "no row matches: default carriers "+carriers.String())
	default:
		d.Reasons = append(d.Reasons, "row "+row+" matches: "+carriers.String())
	}
	d.Rejected = carriers.Intersect(rejected)
	if !d.Rejected.Empty() {
		d.Reasons = append(d.Reasons, "recorded refusals remove "+d.Rejected.String())
	}
	d.Carriers = carriers.Minus(rejected)
	d.Pad = pad && d.Carriers.Has(ReasoningContent)
	if pad && !d.Pad {
		d.Reasons = append(d.Reasons, "no pad: reasoning_content is not a carrier of this route")
	}
	return d
}

// carrierRoute returns the carriers of the first matching row, else the
// local or default set, with the row id.
func (t *Table) carrierRoute(lowerProvider, host string) (CarrierSet, string) {
	for _, row := range t.Rows {
		if row.matches(lowerProvider, host) {
			return row.Carriers, row.ID
		}
	}
	if t.Local.isLocalHost(host) {
		return t.Local.Carriers, "default-local"
	}
	return t.Default, "default"
}
