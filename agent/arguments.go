package agent

import (
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"
)

// maxDepth bounds how deep Arguments follows nested object schemas.
const maxDepth = 8

// Arguments returns a JSON object valid for a tool's JSON schema: every
// required property filled by its type (its default, const or first enum
// value when the schema gives one). A string naming a path or file gets
// path, a pattern "*", a command "ls", any other string "replaycheck". An
// empty or unreadable schema gives {}.
func Arguments(schema []byte, path string) string {
	if !gjson.ValidBytes(schema) {
		return "{}"
	}
	v := fill(gjson.ParseBytes(schema), "", path, 0)
	if _, ok := v.(map[string]any); !ok {
		return "{}"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// fill returns a value valid for schema s, for a property named name.
func fill(s gjson.Result, name, path string, depth int) any {
	if d := s.Get("default"); d.Exists() {
		return d.Value()
	}
	if c := s.Get("const"); c.Exists() {
		return c.Value()
	}
	if e := s.Get("enum"); e.IsArray() && len(e.Array()) > 0 {
		return e.Array()[0].Value()
	}
	for _, alt := range []string{"anyOf", "oneOf", "allOf"} {
		if list := s.Get(alt).Array(); len(list) > 0 {
			for _, a := range list {
				if typeOf(a) != "null" {
					return fill(a, name, path, depth)
				}
			}
			return nil
		}
	}
	switch typeOf(s) {
	case "string":
		return stringFor(name, path)
	case "integer", "number":
		if m := s.Get("minimum"); m.Exists() {
			return m.Value()
		}
		return 1
	case "boolean":
		return false
	case "null":
		return nil
	case "array":
		var out []any
		n := int(s.Get("minItems").Int())
		for range n {
			out = append(out, fill(s.Get("items"), name, path, depth+1))
		}
		if out == nil {
			return []any{}
		}
		return out
	}
	// An object, or a schema with properties and no type.
	out := map[string]any{}
	if depth >= maxDepth {
		return out
	}
	props := s.Get("properties")
	for _, r := range s.Get("required").Array() {
		key := r.String()
		out[key] = fill(props.Get(gjson.Escape(key)), key, path, depth+1)
	}
	return out
}

// typeOf is a schema's type: its "type", the first non-null of a type
// list, "object" for a schema with properties.
func typeOf(s gjson.Result) string {
	t := s.Get("type")
	if t.IsArray() {
		for _, e := range t.Array() {
			if e.String() != "null" {
				return strings.ToLower(e.String())
			}
		}
		return "null"
	}
	if t.Exists() {
		return strings.ToLower(t.String())
	}
	if s.Get("properties").Exists() {
		return "object"
	}
	return ""
}

// stringFor fills a string property by its name.
func stringFor(name, path string) string {
	n := strings.ToLower(name)
	switch {
	case strings.Contains(n, "path") || strings.Contains(n, "file") || strings.Contains(n, "dir"):
		return path
	case strings.Contains(n, "pattern") || strings.Contains(n, "glob"):
		return "*"
	case strings.Contains(n, "command") || n == "cmd":
		return "ls"
	}
	return "replaycheck"
}
