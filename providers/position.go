package providers

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// lineOf returns the line of the node at path below root: the key's line
// for a mapping entry, the item's line for a sequence element. When the
// path leaves the document (a missing key), it returns the line of the
// deepest node that exists, so "id is required" points at its rule.
func lineOf(root *yaml.Node, path []string) int {
	n := root
	line := root.Line
	for _, elem := range path {
		n = deref(n)
		switch n.Kind {
		case yaml.MappingNode:
			k, v := entry(n, elem)
			if k == nil {
				return line
			}
			line, n = k.Line, v
		case yaml.SequenceNode:
			i, err := strconv.Atoi(elem)
			if err != nil || i < 0 || i >= len(n.Content) {
				return line
			}
			n = n.Content[i]
			line = n.Line
		default:
			return line
		}
	}
	return line
}

// entry finds key in a mapping node.
func entry(m *yaml.Node, key string) (k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// deref follows an alias node to its anchor.
func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// keyIssues walks node n against the Go type t and reports every mapping
// key that no yaml tag of t names (what yaml's KnownFields refuses, but
// with the line of the key and the rule it sits in) and every key given
// twice. label prefixes messages ("rule \"x\": ").
func keyIssues(n *yaml.Node, t reflect.Type, label string) []*ValidationError {
	n = deref(n)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []*ValidationError
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return nil // the decoder reports the type mismatch with its line
		}
		fields := yamlFields(t)
		seen := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if first, dup := seen[k.Value]; dup {
				out = append(out, &ValidationError{Line: k.Line, Msg: fmt.Sprintf("%skey %q given twice (first at line %d)", label, k.Value, first)})
				continue
			}
			seen[k.Value] = k.Line
			f, ok := fields[k.Value]
			if !ok {
				out = append(out, &ValidationError{Line: k.Line, Msg: fmt.Sprintf("%sunknown key %q in %s (want %s)", label, k.Value, noun(t), quoteList(tagNames(t)))})
				continue
			}
			out = append(out, keyIssues(v, f.Type, childLabel(label, t, k.Value))...)
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return nil
		}
		for i, item := range n.Content {
			out = append(out, keyIssues(item, t.Elem(), itemLabel(label, t.Elem(), i, item))...)
		}
	}
	return out
}

// yamlFields maps yaml key names to struct fields.
func yamlFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if name := tagName(f); name != "" {
			out[name] = f
		}
	}
	return out
}

// tagNames lists a struct's yaml keys in declaration order.
func tagNames(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.IsExported() {
			if name := tagName(f); name != "" {
				out = append(out, name)
			}
		}
	}
	return out
}

// tagName is the yaml key of a struct field ("" for `yaml:"-"`).
func tagName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	switch name {
	case "-":
		return ""
	case "":
		return strings.ToLower(f.Name)
	}
	return name
}

// noun names a schema type in messages.
func noun(t reflect.Type) string {
	switch t {
	case reflect.TypeOf(Condition{}):
		return "when"
	}
	return strings.ToLower(t.Name())
}

// childLabel is the message prefix below key of a struct of type t: the
// emits and signing sections name themselves; a rule's when keeps the
// rule's label.
func childLabel(label string, t reflect.Type, key string) string {
	if t == reflect.TypeOf(Profile{}) && (key == "emits" || key == "signing") {
		return key + ": "
	}
	return label
}

// itemLabel is the message prefix of the i-th element of a list of elem.
func itemLabel(label string, elem reflect.Type, i int, item *yaml.Node) string {
	item = deref(item)
	switch elem {
	case reflect.TypeOf(Rule{}):
		if _, id := entry(item, "id"); id != nil && id.Kind == yaml.ScalarNode && id.Value != "" {
			return fmt.Sprintf("rule %q: ", id.Value)
		}
		return fmt.Sprintf("rules[%d]: ", i)
	case reflect.TypeOf(Flag{}):
		if _, p := entry(item, "path"); p != nil && p.Kind == yaml.ScalarNode && p.Value != "" {
			return fmt.Sprintf("flag %q: ", p.Value)
		}
		return fmt.Sprintf("flags[%d]: ", i)
	}
	return label
}
