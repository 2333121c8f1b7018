package matrix

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A MatchList describes one list of rules of the route table whose match
// keys select routes: where the list is, which key names a rule, and
// which keys hold match entries. The coverage of the table and the
// mutation operators of replaycheck mutate both walk the table through
// these descriptions, so they never disagree on what an entry is.
type MatchList struct {
	// Path is the list's place in the document, keys joined by dots
	// ("anthropic.routes"); a rule with no list ("local_endpoint") is a
	// path to a mapping.
	Path string
	// IDKey names each rule (its value goes between brackets in an entry's
	// rule name); empty means rules are named by their index.
	IDKey string
	// Keys are the match keys, each a list of entries.
	Keys []string
	// Single is true when Path leads to one mapping, not a list of rules.
	Single bool
}

// MatchLists are the route table's rule lists, in file order.
var MatchLists = []MatchList{
	{Path: "echo_families", IDKey: "name", Keys: []string{"providers_raw", "providers", "models", "hosts"}},
	{Path: "carrier_routes", IDKey: "id", Keys: []string{"providers", "hosts"}},
	{Path: "local_endpoint", Keys: []string{"hostnames", "suffixes", "ranges"}, Single: true},
	{Path: "flags", IDKey: "id", Keys: []string{"providers", "hosts", "models"}},
	{Path: "native_fields", Keys: []string{"providers", "hosts", "host_patterns", "paths", "models"}},
	{Path: "anthropic.routes", IDKey: "id", Keys: []string{"hosts", "host_patterns", "paths", "models"}},
	{Path: "anthropic.platforms", IDKey: "platform", Keys: []string{"hosts", "host_patterns", "paths", "models"}},
	{Path: "bedrock_converse.models", IDKey: "id", Keys: []string{"models"}},
	{Path: "responses.families", IDKey: "id", Keys: []string{"hosts", "host_patterns"}},
}

// An Entry is one match entry of the route table: one provider id, host,
// host pattern, path, model substring, local hostname, suffix or address
// range of one rule.
type Entry struct {
	// List is the rule list's path ("carrier_routes").
	List string
	// Rule is the rule's id, or its index in the list when rules have no
	// id; empty for a single rule (local_endpoint).
	Rule string
	// Index is the rule's position in its list.
	Index int
	// Key is the match key ("hosts").
	Key string
	// Value is the entry ("groq.com").
	Value string
	// Line is the entry's line in matrix.yaml.
	Line int
}

// RuleName names the entry's rule: "carrier_routes[strict]".
func (e Entry) RuleName() string {
	if e.Rule == "" {
		return e.List
	}
	return e.List + "[" + e.Rule + "]"
}

// Name names the entry's list: "carrier_routes[strict].hosts".
func (e Entry) Name() string { return e.RuleName() + "." + e.Key }

// String is "carrier_routes[strict].hosts: groq.com".
func (e Entry) String() string { return e.Name() + ": " + e.Value }

// lookup follows a dotted path of mapping keys from a mapping node.
func lookup(n *yaml.Node, path string) *yaml.Node {
	for _, k := range strings.Split(path, ".") {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
			}
		}
		n = next
	}
	return n
}

// Value returns the value node of key in a mapping node, or nil.
func Value(n *yaml.Node, key string) *yaml.Node { return lookup(n, key) }

// Rules returns the rule nodes of a list in the document's top mapping,
// with the name of each (its id, or its index).
func (l MatchList) Rules(top *yaml.Node) (nodes []*yaml.Node, names []string) {
	n := lookup(top, l.Path)
	if n == nil {
		return nil, nil
	}
	if l.Single {
		if n.Kind == yaml.MappingNode {
			return []*yaml.Node{n}, []string{""}
		}
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, nil
	}
	for i, it := range n.Content {
		name := strconv.Itoa(i)
		if l.IDKey != "" {
			if v := lookup(it, l.IDKey); v != nil && v.Kind == yaml.ScalarNode {
				name = v.Value
			}
		}
		nodes, names = append(nodes, it), append(names, name)
	}
	return nodes, names
}

// entries lists every match entry of the document, in file order.
func entries(top *yaml.Node) []Entry {
	var out []Entry
	for _, l := range MatchLists {
		rules, names := l.Rules(top)
		for i, r := range rules {
			for _, k := range l.Keys {
				v := lookup(r, k)
				if v == nil || v.Kind != yaml.SequenceNode {
					continue
				}
				for _, it := range v.Content {
					out = append(out, Entry{List: l.Path, Rule: names[i], Index: i, Key: k, Value: it.Value, Line: it.Line})
				}
			}
		}
	}
	return out
}
