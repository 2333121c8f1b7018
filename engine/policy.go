package engine

import (
	"strings"
)

// DialectPolicies holds the route data of the native dialects (SPEC §4),
// loaded from matrix.yaml with the rest of the table. The zero value
// replays no reasoning on any native route.
type DialectPolicies struct {
	// Anthropic is the Anthropic Messages policy (matrix.yaml `anthropic:`).
	Anthropic AnthropicPolicy
	// Converse is the Bedrock Converse policy (matrix.yaml
	// `bedrock_converse:`).
	Converse ConversePolicy
	// Responses is the OpenAI Responses policy (matrix.yaml `responses:`).
	Responses ResponsesPolicy
}

// A ReasoningReplay says how a native route replays earlier reasoning.
type ReasoningReplay string

// The replay contracts of SPEC §4.
const (
	// ReplaySigned replays thinking with its signature, byte for byte;
	// thinking without a signature is never sent (models that sign reject
	// unsigned replay).
	ReplaySigned ReasoningReplay = "signed"
	// ReplayUnsigned replays the readable thinking text without signatures.
	ReplayUnsigned ReasoningReplay = "unsigned"
	// ReplayStripped never replays reasoning.
	ReplayStripped ReasoningReplay = "stripped"
)

// ParseReasoningReplay reads a replay contract name.
func ParseReasoningReplay(s string) (ReasoningReplay, bool) {
	switch r := ReasoningReplay(s); r {
	case ReplaySigned, ReplayUnsigned, ReplayStripped:
		return r, true
	}
	return "", false
}

// An EndpointMatch selects native routes by base URL and model. Each group
// that is given must hold: the hostname matches one of Hosts (the host or a
// subdomain, SPEC §2.1) or one of HostPatterns; the base URL's path holds
// one of Paths; the lower-cased model contains one of Models. Only the
// parsed hostname and path are compared, so look-alike hosts and hosts
// written into a path never match.
type EndpointMatch struct {
	Hosts []string
	// HostPatterns match the whole hostname label by label; "*" stands for
	// one or more letters, digits or hyphens inside one label, so
	// "bedrock-runtime.*.amazonaws.com" matches
	// "bedrock-runtime.us-east-1.amazonaws.com" and nothing longer.
	HostPatterns []string
	// Paths are runs of whole path segments written with a leading slash
	// ("/publishers/anthropic"); one matches when the base URL's path
	// contains its segments consecutively.
	Paths []string
	// Models are lower-case model substrings.
	Models []string
}

// Empty reports whether the match has no group, which would match every
// route.
func (m EndpointMatch) Empty() bool {
	return len(m.Hosts)+len(m.HostPatterns)+len(m.Paths)+len(m.Models) == 0
}

// Matches applies the match to a route's base URL and model.
func (m EndpointMatch) Matches(baseURL, model string) bool {
	return m.matches(parseEndpoint(baseURL), model)
}

// matches applies the match to a parsed base URL and a model.
func (m EndpointMatch) matches(e endpoint, model string) bool {
	if len(m.Hosts) > 0 || len(m.HostPatterns) > 0 {
		ok := hostMatchesAny(e.host, m.Hosts)
		for _, p := range m.HostPatterns {
			ok = ok || HostPatternMatches(e.host, p)
		}
		if !ok {
			return false
		}
	}
	if len(m.Paths) > 0 {
		ok := false
		for _, p := range m.Paths {
			ok = ok || containsRun(e.segs, strings.Split(strings.Trim(p, "/"), "/"))
		}
		if !ok {
			return false
		}
	}
	if len(m.Models) > 0 {
		lm := strings.ToLower(strings.TrimSpace(model))
		for _, s := range m.Models {
			if strings.Contains(lm, s) {
				return true
			}
		}
		return false
	}
	return true
}

// An endpoint is a base URL parsed once for the matches of one decision:
// its normalised hostname ([Hostname]) and its path's segments.
type endpoint struct {
	host string
	segs []string
}

func parseEndpoint(baseURL string) endpoint {
	u := parseBaseURL(baseURL)
	if u == nil {
		return endpoint{}
	}
	return endpoint{host: strings.TrimSuffix(strings.ToLower(u.Hostname()), "."), segs: segments(u.Path)}
}

// HostPatternMatches reports whether a normalised hostname matches a host
// pattern: the same number of labels, each equal to the pattern's label or
// matching it with "*" standing for one or more of [a-z0-9-].
func HostPatternMatches(hostname, pattern string) bool {
	if hostname == "" || pattern == "" {
		return false
	}
	hl := strings.Split(hostname, ".")
	pl := strings.Split(strings.ToLower(pattern), ".")
	if len(hl) != len(pl) {
		return false
	}
	for i := range pl {
		if !globLabel(pl[i], hl[i]) {
			return false
		}
	}
	return true
}

// globLabel matches one hostname label against a pattern label.
func globLabel(p, s string) bool {
	star := strings.IndexByte(p, '*')
	if star < 0 {
		return p == s
	}
	if !strings.HasPrefix(s, p[:star]) {
		return false
	}
	rest := p[star+1:]
	s = s[star:]
	// "*" takes at least one byte, and only label bytes.
	for n := 1; n <= len(s); n++ {
		if !labelByte(s[n-1]) {
			return false
		}
		if globLabel(rest, s[n:]) {
			return true
		}
	}
	return false
}

func labelByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-'
}

// pathSegments returns the non-empty segments of a base URL's path.
func pathSegments(baseURL string) []string {
	if u := parseBaseURL(baseURL); u != nil {
		return segments(u.Path)
	}
	return nil
}

func segments(path string) []string {
	var out []string
	for _, seg := range strings.Split(path, "/") {
		if seg != "" {
			out = append(out, seg)
		}
	}
	return out
}

// containsRun reports whether segs holds run as consecutive elements.
func containsRun(segs, run []string) bool {
	for i := 0; i+len(run) <= len(segs); i++ {
		ok := true
		for j := range run {
			if segs[i+j] != run[j] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// AnthropicPolicy is the route data of the Anthropic Messages dialect
// (SPEC §4.1): which routes replay thinking and how, which platform serves
// a base URL, and which models keep earlier turns' thinking.
type AnthropicPolicy struct {
	// Routes classify a route; the first match wins, and a route matching
	// none is an unknown relay that gets no thinking.
	Routes []AnthropicRoute
	// Platforms say which request shape a base URL needs; a base URL
	// matching none speaks the Messages API at /v1/messages.
	Platforms []AnthropicPlatform
	// PriorThinking is the capability table of models that keep the
	// thinking of earlier turns.
	PriorThinking PriorThinking
	// AdaptiveThinking is the table of models that take only adaptive
	// thinking; Bedrock Converse reads it too.
	AdaptiveThinking AdaptiveThinking
}

// PriorRule says when a route replays the thinking of turns before the
// in-flight tool loop.
type PriorRule string

// The prior-thinking rules.
const (
	// PriorCapability replays earlier turns' thinking to models the
	// capability table says keep it.
	PriorCapability PriorRule = "capability"
	// PriorAlways replays earlier turns' thinking to every model.
	PriorAlways PriorRule = "always"
)

// An AnthropicRoute is one route class of the Anthropic dialect.
type AnthropicRoute struct {
	ID string
	// Replay is the route's contract: signed, unsigned or stripped.
	Replay ReasoningReplay
	// PriorThinking says when earlier turns' thinking is replayed; the
	// in-flight tool loop's thinking is always replayed unless stripped.
	PriorThinking PriorRule
	// LearnRejections records the fingerprints of signed blocks the route
	// refuses and suppresses them on every later request; routes without it
	// repair the refused request once and keep nothing.
	LearnRejections bool
	Match           EndpointMatch
}

// The Anthropic platforms: each has its own path and body shape.
const (
	PlatformMessages = "messages"
	PlatformBedrock  = "bedrock"
	PlatformVertex   = "vertex"
)

// An AnthropicPlatform names the request shape of the base URLs it matches.
type AnthropicPlatform struct {
	// Platform is PlatformBedrock or PlatformVertex.
	Platform string
	Match    EndpointMatch
}

// An AnthropicReplay is what the Anthropic policy decides for one route.
type AnthropicReplay struct {
	// Route is the id of the matching route, or "" for an unknown relay.
	Route string
	// Replay is the contract; an unknown relay is ReplayStripped.
	Replay ReasoningReplay
	// PriorThinking is true when earlier turns' thinking reaches the wire.
	PriorThinking bool
	// LearnRejections is the matching route's setting.
	LearnRejections bool
	// Platform is PlatformMessages, PlatformBedrock or PlatformVertex.
	Platform string
	// Adaptive is true when the model takes only adaptive thinking
	// ([AdaptiveThinking.Only]): the request asks for
	// {"type":"adaptive"} instead of a thinking budget.
	Adaptive bool
}

// Decide classifies a route by base URL and model.
func (p AnthropicPolicy) Decide(baseURL, model string) AnthropicReplay {
	e := parseEndpoint(baseURL)
	out := AnthropicReplay{Replay: ReplayStripped, Platform: p.platform(e, model), Adaptive: p.AdaptiveThinking.Only(model)}
	for _, r := range p.Routes {
		if !r.Match.matches(e, model) {
			continue
		}
		out.Route, out.Replay, out.LearnRejections = r.ID, r.Replay, r.LearnRejections
		switch {
		case r.Replay == ReplayStripped:
		case r.PriorThinking == PriorAlways:
			out.PriorThinking = true
		default:
			out.PriorThinking = p.PriorThinking.Keeps(model)
		}
		return out
	}
	return out
}

// Platform returns the platform serving a base URL.
func (p AnthropicPolicy) Platform(baseURL, model string) string {
	return p.platform(parseEndpoint(baseURL), model)
}

func (p AnthropicPolicy) platform(e endpoint, model string) string {
	for _, pl := range p.Platforms {
		if pl.Match.matches(e, model) {
			return pl.Platform
		}
	}
	return PlatformMessages
}

// StaleThinkingReachesWire reports whether thinking of turns before the
// in-flight tool loop reaches the wire on an Anthropic route; it is the
// dialect's half of the one predicate estimate and compaction share
// (SPEC §7).
func (p AnthropicPolicy) StaleThinkingReachesWire(baseURL, model string) bool {
	d := p.Decide(baseURL, model)
	return d.Replay != ReplayStripped && d.PriorThinking
}

// A ModelVersion is a model generation: major and minor version.
type ModelVersion struct{ Major, Minor int }

// Less reports whether v is older than o.
func (v ModelVersion) Less(o ModelVersion) bool {
	return v.Major < o.Major || v.Major == o.Major && v.Minor < o.Minor
}

// A ModelFamily is a Claude model family of the capability table.
type ModelFamily struct {
	// Name is the family word in model ids ("opus").
	Name string
	// KeepsFrom is the first version that keeps earlier turns' thinking;
	// nil means the table's DefaultKeepsFrom.
	KeepsFrom *ModelVersion
}

// PriorThinking is the capability table of models that keep the thinking
// of earlier turns (research: hermes-semantics §4.3). A model id without
// "claude" never keeps it; a Claude id of a NeverGenerations generation
// ("claude-3…") never keeps it; a parsed Claude id keeps it from its
// family's version on; an unparsed Claude id keeps it (replaying a block
// the model ignores costs nothing, stripping it from a model that keeps it
// rewrites the cached prefix on every call).
type PriorThinking struct {
	Families         []ModelFamily
	DefaultKeepsFrom ModelVersion
	// NeverGenerations are generation numbers written right after "claude"
	// ("3" for claude-3-7-sonnet, claude3-opus).
	NeverGenerations []string
}

// Keeps reports whether the model keeps earlier turns' thinking.
func (p PriorThinking) Keeps(model string) bool { return p.verdict(model).keeps }

// priorVerdict is how the capability table classes a model: why it keeps
// earlier turns' thinking or not ([PriorThinking.Why] words it).
type priorVerdict struct {
	keeps bool
	// claude is false for an id that names no Claude model; never is set
	// for a never-keeping generation; parsed for a family and version read.
	claude, never, parsed bool
	family                ModelFamily
	version, from         ModelVersion
}

// verdict classes model: no Claude id, a never-keeping generation, an
// unparsed Claude id (keeps), or a family version against its threshold.
func (p PriorThinking) verdict(model string) priorVerdict {
	lm := strings.ToLower(model)
	if !strings.Contains(lm, "claude") {
		return priorVerdict{}
	}
	for rest := lm; ; {
		i := strings.Index(rest, "claude")
		if i < 0 {
			break
		}
		rest = rest[i+len("claude"):]
		if p.neverGeneration(rest) {
			return priorVerdict{claude: true, never: true}
		}
	}
	for rest := lm; ; {
		i := strings.Index(rest, "claude")
		if i < 0 {
			return priorVerdict{claude: true, keeps: true} // unparsed Claude id
		}
		rest = rest[i+len("claude"):]
		if fam, v, ok := p.parse(rest); ok {
			from := p.DefaultKeepsFrom
			if fam.KeepsFrom != nil {
				from = *fam.KeepsFrom
			}
			return priorVerdict{claude: true, parsed: true, family: fam, version: v, from: from, keeps: !v.Less(from)}
		}
	}
}

// neverGeneration reports whether s (what follows "claude") starts with an
// optional separator and a never-keeping generation not followed by a digit.
func (p PriorThinking) neverGeneration(s string) bool {
	if s != "" && isSep(s[0]) {
		s = s[1:]
	}
	for _, g := range p.NeverGenerations {
		if strings.HasPrefix(s, g) && (len(s) == len(g) || !isDigit(s[len(g)])) {
			return true
		}
	}
	return false
}

// parse reads "<sep><family><sep><major>[<sep><minor>]" for a family of
// the table ([parseFamily]).
func (p PriorThinking) parse(s string) (ModelFamily, ModelVersion, bool) {
	k, v, ok := parseFamily(s, len(p.Families), func(k int) string { return p.Families[k].Name })
	if !ok {
		return ModelFamily{}, ModelVersion{}, false
	}
	return p.Families[k], v, true
}

// ClaudeVersion reads the family (one of families) and version that a
// Claude model id names, as the capability table reads them:
// claude-opus-4-6, us.anthropic.claude-opus-4-6-v1:0 and
// claude-sonnet-4-5@20250929 name 4.6 and 4.5, claude-opus-4-20250514 4.0.
// ok is false for an id that names no such family and version.
func ClaudeVersion(model string, families []string) (family string, v ModelVersion, ok bool) {
	for rest := strings.ToLower(model); ; {
		i := strings.Index(rest, "claude")
		if i < 0 {
			return "", ModelVersion{}, false
		}
		rest = rest[i+len("claude"):]
		if k, v, ok := parseFamily(rest, len(families), func(k int) string { return families[k] }); ok {
			return families[k], v, true
		}
	}
}

// parseFamily reads "<sep><family><sep><major>[<sep><minor>]", where the
// family is one of n names and the minor is one or two digits not followed
// by another digit (so snapshot dates such as claude-opus-4-20250514 stay
// 4.0). It returns the index of the family that matched.
func parseFamily(s string, n int, name func(int) string) (int, ModelVersion, bool) {
	if s == "" || !isSep(s[0]) {
		return 0, ModelVersion{}, false
	}
	s = s[1:]
	for k := 0; k < n; k++ {
		f := name(k)
		if !strings.HasPrefix(s, f) {
			continue
		}
		r := s[len(f):]
		if r == "" || !isSep(r[0]) {
			continue
		}
		r = r[1:]
		major, d := digits(r)
		if d == 0 {
			continue
		}
		v := ModelVersion{Major: major}
		r = r[d:]
		if len(r) > 1 && isSep(r[0]) {
			if minor, m := digits(r[1:]); m >= 1 && m <= 2 {
				v.Minor = minor
			}
		}
		return k, v, true
	}
	return 0, ModelVersion{}, false
}

func isSep(c byte) bool   { return c == '-' || c == '_' || c == '.' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// digits parses the leading run of ASCII digits (at most 9) and returns its
// value and length.
func digits(s string) (int, int) {
	n, v := 0, 0
	for n < len(s) && isDigit(s[n]) {
		if n < 9 {
			v = v*10 + int(s[n]-'0')
		}
		n++
	}
	return v, n
}

// ConversePolicy is the route data of the Bedrock Converse dialect
// (SPEC §4.2): per model, how reasoning is replayed and whether thinking is
// requested.
type ConversePolicy struct {
	// Models are matched in order on the lower-cased model id; the first
	// match wins.
	Models []ConverseModel
	// DefaultReplay applies to a model matching no row; empty means
	// ReplayStripped.
	DefaultReplay ReasoningReplay
}

// A ConverseModel is the Converse policy of the models it matches.
type ConverseModel struct {
	ID string
	// Models are lower-case model id substrings.
	Models []string
	// Replay is signed (reasoningText with its signature), stripped (no
	// reasoning) or unsigned (reasoningText without signature).
	Replay ReasoningReplay
	// RequestThinking asks for thinking through
	// additionalModelRequestFields.thinking (Claude models).
	RequestThinking bool
}

// For returns the policy of a model; a model matching no row gets a row
// with id "default" and the default replay.
func (p ConversePolicy) For(model string) ConverseModel {
	lm := strings.ToLower(strings.TrimSpace(model))
	for _, m := range p.Models {
		for _, s := range m.Models {
			if strings.Contains(lm, s) {
				return m
			}
		}
	}
	r := p.DefaultReplay
	if r == "" {
		r = ReplayStripped
	}
	return ConverseModel{ID: "default", Replay: r}
}

// priorThinking reports whether a native route replays earlier turns'
// readable thinking: Anthropic per its route and model capability,
// Converse unless the model's reasoning is stripped, Responses always (a
// route gets back every reasoning item its own family issued, summaries
// included); Gemini replays only signatures, never readable thoughts.
func (p DialectPolicies) priorThinking(r Route) bool {
	switch r.APIMode {
	case ModeAnthropic:
		return p.Anthropic.StaleThinkingReachesWire(r.BaseURL, r.Model)
	case ModeBedrockConverse:
		return p.Converse.For(r.Model).Replay != ReplayStripped
	case ModeResponses:
		return true
	}
	return false
}

// ResponsesPolicy is the route data of the OpenAI Responses dialect: which
// endpoints form one issuer of encrypted reasoning items. A reasoning item
// is sealed by the service that issued it (to its organisation, resource
// and model), so it is replayed only to routes of the family that issued
// it, for the same model (SPEC §9.5); every other route gets the turn
// without it.
type ResponsesPolicy struct {
	// Families are matched in order on the route's hostname; the first
	// match wins.
	Families []ResponsesFamily
}

// A ResponsesFamily is a set of hosts that accept each other's reasoning
// items.
type ResponsesFamily struct {
	ID string
	// PerHost makes each hostname of the family an issuer of its own: an
	// Azure OpenAI resource seals items to itself, so two resources of the
	// family never share them.
	PerHost bool
	// Match selects hostnames (Hosts and HostPatterns only).
	Match EndpointMatch
}

// FamilyOf returns the first family matching a hostname, and whether one
// does.
func (p ResponsesPolicy) FamilyOf(hostname string) (ResponsesFamily, bool) {
	for _, f := range p.Families {
		if f.Match.Matches(hostname, "") {
			return f, true
		}
	}
	return ResponsesFamily{}, false
}

// Family names the issuing family of a hostname: the id of the first
// family matching it, followed by "/" and the hostname when the family is
// per host; a hostname no family lists is a family of its own,
// "host:<hostname>". An empty hostname has no family ("").
func (p ResponsesPolicy) Family(hostname string) string {
	if hostname == "" {
		return ""
	}
	f, ok := p.FamilyOf(hostname)
	switch {
	case !ok:
		return "host:" + hostname
	case f.PerHost:
		return f.ID + "/" + hostname
	}
	return f.ID
}

// SameIssuer reports whether a reasoning item issued on the route issuer
// may be replayed on the route k: both hosts are of one family, and the
// models are the same (trimmed, as route keys hold them).
func (p ResponsesPolicy) SameIssuer(issuer, k RouteKey) bool {
	f := p.Family(issuer.Host)
	return f != "" && f == p.Family(k.Host) && issuer.Model != "" && issuer.Model == k.Model
}
