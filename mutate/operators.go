package mutate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"go.yaml.in/yaml/v3"
)

// An edit is one single edit of the document: what it does, the line of
// the edited entry, and apply, which makes the edit in place and returns
// the function that undoes it.
type edit struct {
	what string
	line int
	// section is the top-level section edited ("anthropic").
	section string
	apply   func() (undo func())
}

// An operator makes the edits of one kind the document allows. The
// operators are a table: each row is one kind of edit of the list,
// in one place.
type operator struct {
	name  string
	edits func(top *yaml.Node) []edit
}

// operators are the mutation operators, in report order.
var operators = []operator{
	{"drop-entry", dropEntries},
	{"drop-rule", dropRules},
	{"reorder", reorderRules},
	{"carrier", carrierEdits},
	{"flip", flipBooleans},
	{"enum", changeEnums},
	{"threshold", moveThresholds},
	{"adaptive", moveAdaptive},
	{"flag-value", changeFlagValues},
	{"merge-split", mergeSplitFamilies},
}

// firstMatchWins are the lists whose order decides: the first matching
// rule wins.
var firstMatchWins = []string{"echo_families", "carrier_routes", "anthropic.routes", "anthropic.platforms", "bedrock_converse.models", "responses.families"}

// node helpers: each changes a node in place and returns the undo.

func removeAt(list *yaml.Node, i int) func() {
	old := list.Content
	list.Content = append(append([]*yaml.Node{}, old[:i]...), old[i+1:]...)
	return func() { list.Content = old }
}

func swap(list *yaml.Node, i, j int) func() {
	old := list.Content
	c := append([]*yaml.Node{}, old...)
	c[i], c[j] = c[j], c[i]
	list.Content = c
	return func() { list.Content = old }
}

func appendItem(list *yaml.Node, items ...*yaml.Node) func() {
	old := list.Content
	list.Content = append(append([]*yaml.Node{}, old...), items...)
	return func() { list.Content = old }
}

func setScalar(n *yaml.Node, value, tag string) func() {
	oldV, oldT, oldS := n.Value, n.Tag, n.Style
	n.Value, n.Tag, n.Style = value, tag, 0
	if tag == "!!str" {
		n.Style = yaml.DoubleQuotedStyle
	}
	return func() { n.Value, n.Tag, n.Style = oldV, oldT, oldS }
}

// setKey sets key of a mapping to a new scalar, adding the key when the
// mapping lacks it.
func setKey(m *yaml.Node, key, value, tag string) func() {
	if v := matrix.Value(m, key); v != nil {
		return setScalar(v, value, tag)
	}
	old := m.Content
	m.Content = append(append([]*yaml.Node{}, old...),
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key},
		&yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value})
	return func() { m.Content = old }
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }

// listNode returns the node at a dotted path of the document, or nil.
func listNode(top *yaml.Node, path string) *yaml.Node {
	n := top
	for _, k := range strings.Split(path, ".") {
		n = matrix.Value(n, k)
		if n == nil {
			return nil
		}
	}
	return n
}

func ruleName(l matrix.MatchList, name string) string {
	if l.Single {
		return l.Path
	}
	return l.Path + "[" + name + "]"
}

// dropEntries drops each match entry (provider, host, host pattern, path,
// model substring, local hostname, suffix or address range) of every rule.
func dropEntries(top *yaml.Node) []edit {
	var out []edit
	for _, l := range matrix.MatchLists {
		rules, names := l.Rules(top)
		for ri, r := range rules {
			for _, k := range l.Keys {
				list := matrix.Value(r, k)
				if list == nil || list.Kind != yaml.SequenceNode {
					continue
				}
				for i, it := range list.Content {
					out = append(out, edit{what: fmt.Sprintf("drop %s from %s.%s", it.Value, ruleName(l, names[ri]), k), line: it.Line, section: sectionOf(l.Path),
						apply: func() func() { return removeAt(list, i) }})
				}
			}
		}
	}
	return out
}

// dropRules drops each rule of every list: each row, family, flag, native
// field rule, route class, platform and Converse row.
func dropRules(top *yaml.Node) []edit {
	var out []edit
	for _, l := range matrix.MatchLists {
		if l.Single {
			continue
		}
		list := listNode(top, l.Path)
		_, names := l.Rules(top)
		for i := range names {
			out = append(out, edit{what: "drop " + ruleName(l, names[i]), line: list.Content[i].Line, section: sectionOf(l.Path),
				apply: func() func() { return removeAt(list, i) }})
		}
	}
	return out
}

// reorderRules moves each rule of a first-match-wins list before the one
// above it.
func reorderRules(top *yaml.Node) []edit {
	var out []edit
	for _, l := range matrix.MatchLists {
		if !contains(firstMatchWins, l.Path) {
			continue
		}
		list := listNode(top, l.Path)
		_, names := l.Rules(top)
		for i := 1; i < len(names); i++ {
			out = append(out, edit{what: fmt.Sprintf("move %s before %s", ruleName(l, names[i]), ruleName(l, names[i-1])), line: list.Content[i].Line, section: sectionOf(l.Path),
				apply: func() func() { return swap(list, i-1, i) }})
		}
	}
	return out
}

// carrierEdits drops or adds each carrier of each carrier set: every row,
// the local endpoint rule and the default.
func carrierEdits(top *yaml.Node) []edit {
	type set struct {
		name string
		list *yaml.Node
	}
	var sets []set
	rules, names, _ := keyed(top, "carrier_routes", "carriers")
	for i, r := range rules {
		sets = append(sets, set{names[i] + ".carriers", matrix.Value(r, "carriers")})
	}
	if le := matrix.Value(top, "local_endpoint"); le != nil {
		sets = append(sets, set{"local_endpoint.carriers", matrix.Value(le, "carriers")})
	}
	sets = append(sets, set{"default_carriers", matrix.Value(top, "default_carriers")})
	var out []edit
	for _, s := range sets {
		if s.list == nil || s.list.Kind != yaml.SequenceNode {
			continue
		}
		for _, c := range engine.AllCarriers {
			idx := -1
			for i, it := range s.list.Content {
				if it.Value == string(c) {
					idx = i
				}
			}
			if idx >= 0 {
				out = append(out, edit{what: fmt.Sprintf("drop %s from %s", c, s.name), line: s.list.Content[idx].Line, section: sectionOf(s.name),
					apply: func() func() { return removeAt(s.list, idx) }})
				continue
			}
			out = append(out, edit{what: fmt.Sprintf("add %s to %s", c, s.name), line: s.list.Line, section: sectionOf(s.name),
				apply: func() func() { return appendItem(s.list, scalar(string(c))) }})
		}
	}
	return out
}

// keyed lists the rules of a list with a key to edit: each rule node, its
// name and the line to report (the key's value, else the rule).
func keyed(top *yaml.Node, path, key string) (rules []*yaml.Node, names []string, lines []int) {
	for _, l := range matrix.MatchLists {
		if l.Path != path {
			continue
		}
		rs, ns := l.Rules(top)
		for i, r := range rs {
			line := r.Line
			if v := matrix.Value(r, key); v != nil {
				line = v.Line
			}
			rules, names, lines = append(rules, r), append(names, ruleName(l, ns[i])), append(lines, line)
		}
	}
	return rules, names, lines
}

// flipBooleans flips each boolean of the table: learn_rejections,
// request_thinking, per_host (an absent one is false, and is set true) and
// the local endpoint's private_addresses and dotless_hostnames.
func flipBooleans(top *yaml.Node) []edit {
	var out []edit
	for _, b := range []struct{ path, key string }{
		{"anthropic.routes", "learn_rejections"},
		{"bedrock_converse.models", "request_thinking"},
		{"responses.families", "per_host"},
	} {
		rules, names, lines := keyed(top, b.path, b.key)
		for i, r := range rules {
			now := false
			if v := matrix.Value(r, b.key); v != nil {
				now = v.Value == "true"
			}
			out = append(out, edit{what: fmt.Sprintf("set %s.%s to %v", names[i], b.key, !now), line: lines[i], section: sectionOf(b.path),
				apply: func() func() { return setKey(r, b.key, strconv.FormatBool(!now), "!!bool") }})
		}
	}
	if le := matrix.Value(top, "local_endpoint"); le != nil {
		for _, key := range []string{"private_addresses", "dotless_hostnames"} {
			now := false
			line := le.Line
			if v := matrix.Value(le, key); v != nil {
				now, line = v.Value == "true", v.Line
			}
			out = append(out, edit{what: fmt.Sprintf("set local_endpoint.%s to %v", key, !now), line: line, section: "local_endpoint",
				apply: func() func() { return setKey(le, key, strconv.FormatBool(!now), "!!bool") }})
		}
	}
	return out
}

// changeEnums changes each enum to each of its other values: the replay
// of every route class and Converse row, Converse's default replay,
// every route class's prior_thinking, and the private field group each
// native field rule reads. A route class that learns refused
// signatures and stops signing stops learning in the same edit (the
// loader refuses learn_rejections on a route that sends no signature), as
// the seed's Claude-platform regression did to Bedrock, Vertex and Foundry.
func changeEnums(top *yaml.Node) []edit {
	replays := []string{string(engine.ReplaySigned), string(engine.ReplayUnsigned), string(engine.ReplayStripped)}
	priors := []string{string(engine.PriorCapability), string(engine.PriorAlways)}
	var out []edit
	for _, e := range []struct {
		path, key string
		values    []string
	}{
		{"anthropic.routes", "replay", replays},
		{"anthropic.routes", "prior_thinking", priors},
		{"bedrock_converse.models", "replay", replays},
		{"native_fields", "field", []string{engine.NativeGemini, engine.NativeCopilot}},
	} {
		rules, names, lines := keyed(top, e.path, e.key)
		for i, r := range rules {
			now := ""
			if v := matrix.Value(r, e.key); v != nil {
				now = v.Value
			}
			for _, to := range e.values {
				if to == now {
					continue
				}
				if e.path == "anthropic.routes" && e.key == "replay" && to != string(engine.ReplaySigned) && learnsRejections(r) {
					// Only a signed route sends signatures to refuse, so the
					// loader refuses learn_rejections beside another replay:
					// a maintainer who stops a route class signing turns the
					// learning off in the same edit.
					out = append(out, edit{what: fmt.Sprintf("set %s.%s to %s and learn_rejections to false", names[i], e.key, to), line: lines[i], section: sectionOf(e.path),
						apply: func() func() {
							undoReplay, undoLearn := setKey(r, e.key, to, "!!str"), setKey(r, "learn_rejections", "false", "!!bool")
							return func() { undoLearn(); undoReplay() }
						}})
					continue
				}
				out = append(out, edit{what: fmt.Sprintf("set %s.%s to %s", names[i], e.key, to), line: lines[i], section: sectionOf(e.path),
					apply: func() func() { return setKey(r, e.key, to, "!!str") }})
			}
		}
	}
	if bc := matrix.Value(top, "bedrock_converse"); bc != nil {
		if v := matrix.Value(bc, "default_replay"); v != nil {
			for _, to := range replays {
				if to != v.Value {
					out = append(out, edit{what: "set bedrock_converse.default_replay to " + to, line: v.Line, section: "bedrock_converse",
						apply: func() func() { return setScalar(v, to, "!!str") }})
				}
			}
		}
	}
	return out
}

// learnsRejections reports whether an Anthropic route class sets
// learn_rejections.
func learnsRejections(route *yaml.Node) bool {
	v := matrix.Value(route, "learn_rejections")
	return v != nil && v.Value == "true"
}

// moveThresholds moves each prior-thinking threshold (each family's
// keeps_from and the default) one minor version up and down, and drops
// each never-keeping generation and each family.
func moveThresholds(top *yaml.Node) []edit {
	pt := listNode(top, "anthropic.prior_thinking")
	if pt == nil {
		return nil
	}
	var out []edit
	move := func(name string, v *yaml.Node) {
		ver, err := parseVersion(v.Value)
		if err != nil {
			return
		}
		for _, d := range []int{+1, -1} {
			to := ver.step(d)
			if to == "" {
				continue
			}
			out = append(out, edit{what: fmt.Sprintf("move %s from %s to %s", name, v.Value, to), line: v.Line, section: "anthropic",
				apply: func() func() { return setScalar(v, to, "!!str") }})
		}
	}
	fams := matrix.Value(pt, "families")
	if fams != nil && fams.Kind == yaml.SequenceNode {
		for i, f := range fams.Content {
			name := strconv.Itoa(i)
			if n := matrix.Value(f, "name"); n != nil {
				name = n.Value
			}
			if v := matrix.Value(f, "keeps_from"); v != nil {
				move("anthropic.prior_thinking.families["+name+"].keeps_from", v)
			}
			out = append(out, edit{what: "drop anthropic.prior_thinking.families[" + name + "]", line: f.Line, section: "anthropic",
				apply: func() func() { return removeAt(fams, i) }})
		}
	}
	if v := matrix.Value(pt, "default_keeps_from"); v != nil {
		move("anthropic.prior_thinking.default_keeps_from", v)
	}
	if ng := matrix.Value(pt, "never_generations"); ng != nil && ng.Kind == yaml.SequenceNode {
		for i, g := range ng.Content {
			out = append(out, edit{what: "drop " + g.Value + " from anthropic.prior_thinking.never_generations", line: g.Line, section: "anthropic",
				apply: func() func() { return removeAt(ng, i) }})
		}
	}
	return out
}

// moveAdaptive moves each adaptive-thinking threshold (each family's
// from) one minor version up and down, and drops each family.
func moveAdaptive(top *yaml.Node) []edit {
	fams := listNode(top, "anthropic.adaptive_thinking.families")
	if fams == nil || fams.Kind != yaml.SequenceNode {
		return nil
	}
	var out []edit
	for i, f := range fams.Content {
		name := strconv.Itoa(i)
		if n := matrix.Value(f, "name"); n != nil {
			name = n.Value
		}
		path := "anthropic.adaptive_thinking.families[" + name + "]"
		if v := matrix.Value(f, "from"); v != nil {
			if ver, err := parseVersion(v.Value); err == nil {
				for _, d := range []int{+1, -1} {
					if to := ver.step(d); to != "" {
						out = append(out, edit{what: fmt.Sprintf("move %s.from from %s to %s", path, v.Value, to), line: v.Line, section: "anthropic",
							apply: func() func() { return setScalar(v, to, "!!str") }})
					}
				}
			}
		}
		out = append(out, edit{what: "drop " + path, line: f.Line, section: "anthropic",
			apply: func() func() { return removeAt(fams, i) }})
	}
	return out
}

// version is a keeps_from threshold.
type version struct{ major, minor int }

func parseVersion(s string) (version, error) {
	maj, min, _ := strings.Cut(s, ".")
	a, err := strconv.Atoi(maj)
	if err != nil {
		return version{}, err
	}
	b := 0
	if min != "" {
		if b, err = strconv.Atoi(min); err != nil {
			return version{}, err
		}
	}
	return version{a, b}, nil
}

// step is the version one minor step up (d = +1) or down (d = -1), or ""
// when there is none.
func (v version) step(d int) string {
	v.minor += d
	if v.minor < 0 {
		if v.major == 0 {
			return ""
		}
		v.major, v.minor = v.major-1, 9
	}
	return fmt.Sprintf("%d.%d", v.major, v.minor)
}

// changeFlagValues changes each value a vendor flag sets, as
// [matrix.ChangedScalar] does: a boolean is flipped, a string changed, a
// number moved by one. The variant battery records the same change.
func changeFlagValues(top *yaml.Node) []edit {
	var out []edit
	rules, names, _ := keyed(top, "flags", "set")
	for i, r := range rules {
		set := matrix.Value(r, "set")
		if set == nil || set.Kind != yaml.SequenceNode {
			continue
		}
		for _, s := range set.Content {
			v, p := matrix.Value(s, "value"), matrix.Value(s, "path")
			if v == nil || p == nil || v.Kind != yaml.ScalarNode {
				continue
			}
			to, tag := matrix.ChangedScalar(v.Value, v.Tag)
			out = append(out, edit{what: fmt.Sprintf("set %s %s to %s", names[i], p.Value, to), line: v.Line, section: "flags",
				apply: func() func() { return setScalar(v, to, tag) }})
		}
	}
	return out
}

// mergeSplitFamilies merges each Responses family into the one above it,
// and splits each family with more than one host or pattern in two.
func mergeSplitFamilies(top *yaml.Node) []edit {
	list := listNode(top, "responses.families")
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil
	}
	_, names, _ := keyed(top, "responses.families", "id")
	var out []edit
	for i := 1; i < len(list.Content); i++ {
		into, from := list.Content[i-1], list.Content[i]
		out = append(out, edit{what: fmt.Sprintf("merge %s into %s", names[i], names[i-1]), line: from.Line, section: "responses",
			apply: func() func() {
				var undos []func()
				for _, k := range []string{"hosts", "host_patterns"} {
					src := matrix.Value(from, k)
					if src == nil || len(src.Content) == 0 {
						continue
					}
					dst := matrix.Value(into, k)
					if dst == nil {
						undos = append(undos, setKey(into, k, "", "!!seq"))
						dst = matrix.Value(into, k)
						dst.Kind, dst.Style = yaml.SequenceNode, yaml.FlowStyle
					}
					undos = append(undos, appendItem(dst, src.Content...))
				}
				undos = append(undos, removeAt(list, i))
				return func() {
					for j := len(undos) - 1; j >= 0; j-- {
						undos[j]()
					}
				}
			}})
	}
	for i, f := range list.Content {
		for _, k := range []string{"hosts", "host_patterns"} {
			src := matrix.Value(f, k)
			total := 0
			for _, kk := range []string{"hosts", "host_patterns"} {
				if s := matrix.Value(f, kk); s != nil {
					total += len(s.Content)
				}
			}
			if src == nil || len(src.Content) == 0 || total < 2 {
				continue
			}
			last := src.Content[len(src.Content)-1]
			id := "split"
			if n := matrix.Value(f, "id"); n != nil {
				id = n.Value + "-split"
			}
			out = append(out, edit{what: fmt.Sprintf("split %s out of %s into a family of its own", last.Value, names[i]), line: last.Line, section: "responses",
				apply: func() func() {
					undo := removeAt(src, len(src.Content)-1)
					nf := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
						scalar("id"), scalar(id), scalar(k), {Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Content: []*yaml.Node{scalar(last.Value)}},
					}}
					if ph := matrix.Value(f, "per_host"); ph != nil {
						nf.Content = append(nf.Content, scalar("per_host"), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: ph.Value})
					}
					old := list.Content
					c := append([]*yaml.Node{}, old[:i+1]...)
					c = append(c, nf)
					list.Content = append(c, old[i+1:]...)
					return func() { list.Content = old; undo() }
				}})
			break
		}
	}
	return out
}

// sectionOf is the top-level section of a dotted path or rule name.
func sectionOf(path string) string {
	s, _, _ := strings.Cut(path, ".")
	s, _, _ = strings.Cut(s, "[")
	return s
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
