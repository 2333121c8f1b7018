package matrix

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"go.yaml.in/yaml/v3"
)

var (
	// hostPattern is a hostname whose labels may hold "*"; the last two
	// labels are literal, so a pattern is anchored to a real domain.
	hostPattern = regexp.MustCompile(`^([a-z0-9*-]+\.)*[a-z0-9-]+\.[a-z0-9-]+$`)
	urlPath     = regexp.MustCompile(`^(/[A-Za-z0-9._~@-]+)+$`)
	versionText = regexp.MustCompile(`^([0-9]{1,4})(\.([0-9]{1,2}))?$`)
	familyName  = regexp.MustCompile(`^[a-z]+$`)
	generation  = regexp.MustCompile(`^[0-9]{1,3}$`)
)

// loadDialects reads the native dialects' policies (anthropic,
// bedrock_converse, responses) into the table.
func loadDialects(w walker, top map[string]*yaml.Node, f *File) error {
	if n := top["anthropic"]; n != nil {
		p, err := w.anthropic(n)
		if err != nil {
			return err
		}
		f.Table.Dialects.Anthropic = p
	}
	if n := top["bedrock_converse"]; n != nil {
		p, err := w.converse(n)
		if err != nil {
			return err
		}
		f.Table.Dialects.Converse = p
	}
	if n := top["responses"]; n != nil {
		p, err := w.responses(n)
		if err != nil {
			return err
		}
		f.Table.Dialects.Responses = p
	}
	return nil
}

// responses reads the Responses policy: the issuing families of encrypted
// reasoning items, each matching hostnames only (a family is a sealing
// key's reach, which paths and models do not change).
func (w walker) responses(n *yaml.Node) (engine.ResponsesPolicy, error) {
	var p engine.ResponsesPolicy
	m, err := w.mapping(n, "responses", "families")
	if err != nil {
		return p, err
	}
	items, err := w.sequence(m["families"], "responses families")
	if err != nil {
		return p, err
	}
	seen := map[string]bool{}
	for _, it := range items {
		fm, err := w.mapping(it, "responses family", "id", "per_host", "hosts", "host_patterns", "note")
		if err != nil {
			return p, err
		}
		var f engine.ResponsesFamily
		if f.ID, err = w.str(fm["id"], "responses family id"); err != nil {
			return p, err
		}
		if !kebab.MatchString(f.ID) {
			return p, w.errf(it, "responses family: id %q must be kebab-case", f.ID)
		}
		if seen[f.ID] {
			return p, w.errf(fm["id"], "responses family: duplicate id %q", f.ID)
		}
		seen[f.ID] = true
		what := "responses family " + f.ID
		if f.PerHost, err = w.boolean(fm["per_host"], what+" per_host"); err != nil {
			return p, err
		}
		if fm["hosts"] == nil && fm["host_patterns"] == nil {
			return p, w.errf(it, "%s: empty match (give hosts or host_patterns)", what)
		}
		if f.Match, err = w.endpointMatch(it, fm, what); err != nil {
			return p, err
		}
		p.Families = append(p.Families, f)
	}
	return p, nil
}

func (w walker) anthropic(n *yaml.Node) (engine.AnthropicPolicy, error) {
	var p engine.AnthropicPolicy
	m, err := w.mapping(n, "anthropic", "routes", "platforms", "prior_thinking", "adaptive_thinking")
	if err != nil {
		return p, err
	}
	routes, err := w.sequence(m["routes"], "anthropic routes")
	if err != nil {
		return p, err
	}
	seen := map[string]bool{}
	for _, it := range routes {
		r, err := w.anthropicRoute(it, seen)
		if err != nil {
			return p, err
		}
		p.Routes = append(p.Routes, r)
	}
	platforms, err := w.sequence(m["platforms"], "anthropic platforms")
	if err != nil {
		return p, err
	}
	for _, it := range platforms {
		pm, err := w.mapping(it, "anthropic platform", "platform", "hosts", "host_patterns", "paths", "models", "note")
		if err != nil {
			return p, err
		}
		var pl engine.AnthropicPlatform
		if pl.Platform, err = w.str(pm["platform"], "anthropic platform name"); err != nil {
			return p, err
		}
		if pl.Platform != engine.PlatformBedrock && pl.Platform != engine.PlatformVertex {
			return p, w.errf(it, "anthropic platform: unknown platform %q (want %s or %s)", pl.Platform, engine.PlatformBedrock, engine.PlatformVertex)
		}
		if pl.Match, err = w.endpointMatch(it, pm, "anthropic platform "+pl.Platform); err != nil {
			return p, err
		}
		p.Platforms = append(p.Platforms, pl)
	}
	if m["prior_thinking"] == nil {
		if len(p.Routes) > 0 {
			return p, w.errf(n, "anthropic: missing prior_thinking (the capability table the routes use)")
		}
		return p, nil
	}
	if p.PriorThinking, err = w.priorThinking(m["prior_thinking"]); err != nil {
		return p, err
	}
	if m["adaptive_thinking"] != nil {
		p.AdaptiveThinking, err = w.adaptiveThinking(m["adaptive_thinking"])
	}
	return p, err
}

func (w walker) anthropicRoute(it *yaml.Node, seen map[string]bool) (engine.AnthropicRoute, error) {
	var r engine.AnthropicRoute
	m, err := w.mapping(it, "anthropic route", "id", "replay", "prior_thinking", "learn_rejections",
		"hosts", "host_patterns", "paths", "models", "note")
	if err != nil {
		return r, err
	}
	if r.ID, err = w.str(m["id"], "anthropic route id"); err != nil {
		return r, err
	}
	if !kebab.MatchString(r.ID) {
		return r, w.errf(it, "anthropic route: id %q must be kebab-case", r.ID)
	}
	if seen[r.ID] {
		return r, w.errf(m["id"], "anthropic route: duplicate id %q", r.ID)
	}
	seen[r.ID] = true
	what := "anthropic route " + r.ID
	if r.Replay, err = w.replay(it, m["replay"], what); err != nil {
		return r, err
	}
	prior, err := w.str(m["prior_thinking"], what+" prior_thinking")
	if err != nil {
		return r, err
	}
	switch engine.PriorRule(prior) {
	case engine.PriorCapability, engine.PriorAlways:
		r.PriorThinking = engine.PriorRule(prior)
	case "":
		if r.Replay != engine.ReplayStripped {
			return r, w.errf(it, "%s: missing prior_thinking (want %s or %s)", what, engine.PriorCapability, engine.PriorAlways)
		}
	default:
		return r, w.errf(m["prior_thinking"], "%s: unknown prior_thinking %q (want %s or %s)", what, prior, engine.PriorCapability, engine.PriorAlways)
	}
	if r.LearnRejections, err = w.boolean(m["learn_rejections"], what+" learn_rejections"); err != nil {
		return r, err
	}
	if r.LearnRejections && r.Replay != engine.ReplaySigned {
		return r, w.errf(m["learn_rejections"], "%s: learn_rejections needs replay: signed (only signed routes send signatures)", what)
	}
	r.Match, err = w.endpointMatch(it, m, what)
	return r, err
}

func (w walker) replay(parent, n *yaml.Node, what string) (engine.ReasoningReplay, error) {
	if n == nil {
		return "", w.errf(parent, "%s: missing replay (want signed, unsigned or stripped)", what)
	}
	s, err := w.str(n, what+" replay")
	if err != nil {
		return "", err
	}
	r, ok := engine.ParseReasoningReplay(s)
	if !ok {
		return "", w.errf(n, "%s: unknown replay %q (want signed, unsigned or stripped)", what, s)
	}
	return r, nil
}

// patternsAndPaths reads the host_patterns and paths keys of m.
func (w walker) patternsAndPaths(m map[string]*yaml.Node, what string) (patterns, paths []string, err error) {
	if patterns, err = w.strings(m["host_patterns"], what+" host_patterns"); err != nil {
		return nil, nil, err
	}
	items, _ := w.sequence(m["host_patterns"], "")
	for i, p := range patterns {
		if !hostPattern.MatchString(p) || strings.Contains(p, "**") {
			return nil, nil, w.errf(items[i], "%s host_patterns: bad pattern %q (want a lower-case hostname; \"*\" may stand for part of a label except in the last two)", what, p)
		}
	}
	if paths, err = w.strings(m["paths"], what+" paths"); err != nil {
		return nil, nil, err
	}
	items, _ = w.sequence(m["paths"], "")
	for i, p := range paths {
		if !urlPath.MatchString(p) {
			return nil, nil, w.errf(items[i], "%s paths: bad path %q (want whole segments with a leading slash, like /anthropic)", what, p)
		}
	}
	return patterns, paths, nil
}

// endpointMatch reads the hosts, host_patterns, paths and models keys of m;
// at least one must be given.
func (w walker) endpointMatch(it *yaml.Node, m map[string]*yaml.Node, what string) (engine.EndpointMatch, error) {
	var mt engine.EndpointMatch
	var err error
	if mt.Hosts, err = w.hosts(m["hosts"], what+" hosts"); err != nil {
		return mt, err
	}
	if mt.HostPatterns, mt.Paths, err = w.patternsAndPaths(m, what); err != nil {
		return mt, err
	}
	if mt.Models, err = w.lowerList(m["models"], what+" models"); err != nil {
		return mt, err
	}
	if mt.Empty() {
		return mt, w.errf(it, "%s: empty match (give hosts, host_patterns, paths or models)", what)
	}
	return mt, nil
}

func (w walker) priorThinking(n *yaml.Node) (engine.PriorThinking, error) {
	var p engine.PriorThinking
	m, err := w.mapping(n, "anthropic prior_thinking", "families", "default_keeps_from", "never_generations")
	if err != nil {
		return p, err
	}
	fams, err := w.families(m["families"], "prior_thinking", "keeps_from")
	if err != nil {
		return p, err
	}
	for _, f := range fams {
		p.Families = append(p.Families, engine.ModelFamily{Name: f.name, KeepsFrom: f.from})
	}
	if m["default_keeps_from"] == nil {
		return p, w.errf(n, "anthropic prior_thinking: missing default_keeps_from")
	}
	if p.DefaultKeepsFrom, err = w.version(m["default_keeps_from"], "prior_thinking default_keeps_from"); err != nil {
		return p, err
	}
	if p.NeverGenerations, err = w.strings(m["never_generations"], "prior_thinking never_generations"); err != nil {
		return p, err
	}
	items, _ := w.sequence(m["never_generations"], "")
	for i, g := range p.NeverGenerations {
		if !generation.MatchString(g) {
			return p, w.errf(items[i], "prior_thinking never_generations: %q must be a generation number", g)
		}
	}
	return p, nil
}

func (w walker) version(n *yaml.Node, what string) (engine.ModelVersion, error) {
	s, err := w.str(n, what)
	if err != nil {
		return engine.ModelVersion{}, err
	}
	sm := versionText.FindStringSubmatch(s)
	if sm == nil {
		return engine.ModelVersion{}, w.errf(n, "%s: bad version %q (want major or major.minor, quoted)", what, s)
	}
	major, _ := strconv.Atoi(sm[1])
	minor := 0
	if sm[3] != "" {
		minor, _ = strconv.Atoi(sm[3])
	}
	return engine.ModelVersion{Major: major, Minor: minor}, nil
}

func (w walker) converse(n *yaml.Node) (engine.ConversePolicy, error) {
	var p engine.ConversePolicy
	m, err := w.mapping(n, "bedrock_converse", "models", "default_replay")
	if err != nil {
		return p, err
	}
	items, err := w.sequence(m["models"], "bedrock_converse models")
	if err != nil {
		return p, err
	}
	seen := map[string]bool{}
	for _, it := range items {
		mm, err := w.mapping(it, "bedrock_converse model", "id", "models", "replay", "request_thinking", "note")
		if err != nil {
			return p, err
		}
		var cm engine.ConverseModel
		if cm.ID, err = w.str(mm["id"], "bedrock_converse model id"); err != nil {
			return p, err
		}
		if !kebab.MatchString(cm.ID) || cm.ID == "default" {
			return p, w.errf(it, "bedrock_converse model: id %q must be kebab-case and not \"default\"", cm.ID)
		}
		if seen[cm.ID] {
			return p, w.errf(mm["id"], "bedrock_converse model: duplicate id %q", cm.ID)
		}
		seen[cm.ID] = true
		what := "bedrock_converse model " + cm.ID
		if cm.Models, err = w.lowerList(mm["models"], what+" models"); err != nil {
			return p, err
		}
		if len(cm.Models) == 0 {
			return p, w.errf(it, "%s: empty match (give models)", what)
		}
		if cm.Replay, err = w.replay(it, mm["replay"], what); err != nil {
			return p, err
		}
		if cm.RequestThinking, err = w.boolean(mm["request_thinking"], what+" request_thinking"); err != nil {
			return p, err
		}
		p.Models = append(p.Models, cm)
	}
	if m["default_replay"] != nil {
		if p.DefaultReplay, err = w.replay(n, m["default_replay"], "bedrock_converse default"); err != nil {
			return p, err
		}
	}
	return p, nil
}
