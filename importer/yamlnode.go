package importer

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/replaycheck/replaycheck/engine"
	"go.yaml.in/yaml/v3"
)

// maxDepth bounds the nesting of a YAML body converted to JSON.
const maxDepth = 10000

// parseYAML reads one YAML document into its root node; an empty document
// is an error.
func parseYAML(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, errors.New("empty document")
	}
	return resolve(doc.Content[0]), nil
}

// resolve follows aliases.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// field returns the value of key in a mapping node, or nil.
func field(n *yaml.Node, key string) *yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := resolve(n.Content[i]); k.Kind == yaml.ScalarNode && k.Value == key {
			return resolve(n.Content[i+1])
		}
	}
	return nil
}

// lineErr prefixes an error with the node's line.
func lineErr(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", n.Line, fmt.Sprintf(format, args...))
}

// isNull reports whether n is absent or a YAML null.
func isNull(n *yaml.Node) bool {
	n = resolve(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// scalarBytes returns the bytes a scalar holds: a !!binary scalar's
// decoded base64, any other scalar's text.
func scalarBytes(n *yaml.Node) ([]byte, error) {
	n = resolve(n)
	if n.Kind != yaml.ScalarNode {
		return nil, lineErr(n, "want a string, got a %s", kindName(n))
	}
	if n.ShortTag() != "!!binary" {
		return []byte(n.Value), nil
	}
	clean := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, n.Value)
	b, err := base64.StdEncoding.DecodeString(clean)
	if err != nil {
		return nil, lineErr(n, "!!binary: bad base64: %v", err)
	}
	return b, nil
}

// scalarString is scalarBytes as a string.
func scalarString(n *yaml.Node) (string, error) {
	b, err := scalarBytes(n)
	return string(b), err
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	case yaml.ScalarNode:
		return "scalar"
	}
	return "node"
}

// nodeJSON converts a YAML value (pydantic-ai's parsed_body) to JSON:
// mappings become objects with their keys in document order, sequences
// arrays, scalars the JSON value of their resolved tag. Numbers keep their
// literal text when it is a JSON number, so 1.0 stays 1.0. Errors name the
// YAML line.
func nodeJSON(n *yaml.Node) ([]byte, error) {
	return appendNodeJSON(nil, n, 0)
}

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

func appendNodeJSON(dst []byte, n *yaml.Node, depth int) ([]byte, error) {
	n = resolve(n)
	if n == nil {
		return append(dst, "null"...), nil
	}
	if depth > maxDepth {
		return nil, lineErr(n, "nested deeper than %d levels", maxDepth)
	}
	switch n.Kind {
	case yaml.MappingNode:
		dst = append(dst, '{')
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := resolve(n.Content[i])
			if k.Kind != yaml.ScalarNode {
				return nil, lineErr(k, "a mapping key must be a scalar, got a %s", kindName(k))
			}
			key, err := scalarString(k)
			if err != nil {
				return nil, err
			}
			if seen[key] {
				return nil, lineErr(k, "duplicate key %q", key)
			}
			seen[key] = true
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = engine.AppendQuoted(dst, key)
			dst = append(dst, ':')
			if dst, err = appendNodeJSON(dst, n.Content[i+1], depth+1); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	case yaml.SequenceNode:
		dst = append(dst, '[')
		for i, c := range n.Content {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendNodeJSON(dst, c, depth+1); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case yaml.ScalarNode:
		return appendScalarJSON(dst, n)
	}
	return nil, lineErr(n, "unexpected YAML node")
}

func appendScalarJSON(dst []byte, n *yaml.Node) ([]byte, error) {
	switch n.ShortTag() {
	case "!!null":
		return append(dst, "null"...), nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, lineErr(n, "%v", err)
		}
		return strconv.AppendBool(dst, b), nil
	case "!!int", "!!float":
		if jsonNumber.MatchString(n.Value) {
			return append(dst, n.Value...), nil
		}
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, lineErr(n, "%v", err)
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, lineErr(n, "%s has no JSON form", n.Value)
		}
		return strconv.AppendFloat(dst, f, 'g', -1, 64), nil
	case "!!binary":
		b, err := scalarBytes(n)
		if err != nil {
			return nil, err
		}
		if !utf8.Valid(b) {
			return nil, lineErr(n, "!!binary value inside a parsed body is not text")
		}
		return engine.AppendQuoted(dst, string(b)), nil
	}
	// !!str, !!timestamp and any other tag: the text as written.
	return engine.AppendQuoted(dst, n.Value), nil
}

// headersOf reads a header mapping (name → value or list of values, each
// possibly !!binary) into an http.Header.
func headersOf(n *yaml.Node) (http.Header, error) {
	h := http.Header{}
	n = resolve(n)
	if isNull(n) {
		return h, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, lineErr(n, "headers: want a mapping, got a %s", kindName(n))
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		name, err := scalarString(n.Content[i])
		if err != nil {
			return nil, err
		}
		v := resolve(n.Content[i+1])
		values := []*yaml.Node{v}
		if v.Kind == yaml.SequenceNode {
			values = v.Content
		}
		for _, e := range values {
			if isNull(e) {
				continue
			}
			s, err := scalarString(e)
			if err != nil {
				return nil, fmt.Errorf("header %s: %w", name, err)
			}
			h.Add(name, s)
		}
	}
	return h, nil
}

// compactJSON returns b compacted, or an error naming the JSON offset.
func compactJSON(b []byte) ([]byte, error) {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("not valid JSON at byte offset %d: %v", se.Offset, err)
		}
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	return out.Bytes(), nil
}
