package matrix

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// posError is an error at a line of the file being loaded.
type posError struct {
	file string
	line int
	msg  string
}

func (e *posError) Error() string { return e.file + ":" + strconv.Itoa(e.line) + ": " + e.msg }

// walker reads a YAML document tree and reports errors with positions;
// root is the document's top node, where a missing section is reported.
type walker struct {
	file string
	root *yaml.Node
}

func (w walker) errf(n *yaml.Node, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &posError{file: w.file, line: line, msg: fmt.Sprintf(format, args...)}
}

// mapping returns the key/value pairs of a mapping node, rejecting keys not
// in allowed and duplicate keys.
func (w walker) mapping(n *yaml.Node, what string, allowed ...string) (map[string]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		return nil, w.errf(n, "%s must be a mapping", what)
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !slices.Contains(allowed, k.Value) {
			return nil, w.errf(k, "%s: unknown key %q (want one of %s)", what, k.Value, strings.Join(allowed, ", "))
		}
		if _, dup := out[k.Value]; dup {
			return nil, w.errf(k, "%s: duplicate key %q", what, k.Value)
		}
		out[k.Value] = v
	}
	return out, nil
}

func (w walker) sequence(n *yaml.Node, what string) ([]*yaml.Node, error) {
	if n == nil {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, w.errf(n, "%s must be a list", what)
	}
	return n.Content, nil
}

func (w walker) str(n *yaml.Node, what string) (string, error) {
	if n == nil {
		return "", nil
	}
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", w.errf(n, "%s must be a string", what)
	}
	return n.Value, nil
}

func (w walker) boolean(n *yaml.Node, what string) (bool, error) {
	if n == nil {
		return false, nil
	}
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		return false, w.errf(n, "%s must be true or false", what)
	}
	return n.Value == "true", nil
}

// strings reads a list of non-empty strings.
func (w walker) strings(n *yaml.Node, what string) ([]string, error) {
	items, err := w.sequence(n, what)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, err := w.str(it, what)
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(s) == "" {
			return nil, w.errf(it, "%s: empty entry", what)
		}
		out = append(out, s)
	}
	return out, nil
}
