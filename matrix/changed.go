package matrix

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// ChangedScalar is a flag value changed the one way both `replaycheck
// mutate` and the variant battery change it: a boolean flipped, an
// integer moved up by one, any other scalar suffixed "-changed" (a
// string the provider does not document). value is the YAML scalar's
// text and tag its YAML tag; the result is the changed text and its tag.
func ChangedScalar(value, tag string) (string, string) {
	switch tag {
	case "!!bool":
		return strconv.FormatBool(value != "true"), "!!bool"
	case "!!int":
		n, _ := strconv.Atoi(value)
		return strconv.Itoa(n + 1), "!!int"
	default:
		return value + "-changed", "!!str"
	}
}

// ChangedFlagValue is [ChangedScalar] on a flag setting's JSON value, as
// the route table holds it: the JSON the changed YAML scalar decodes to.
// ok is false for a value that is not a scalar (an object or array),
// which mutate leaves alone too.
func ChangedFlagValue(raw json.RawMessage) (json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	var to any
	switch x := v.(type) {
	case bool:
		to = !x
	case json.Number:
		if n, err := strconv.Atoi(string(x)); err == nil {
			to = n + 1
		} else {
			to = string(x) + "-changed"
		}
	case string:
		to = x + "-changed"
	default:
		return nil, false
	}
	out, err := json.Marshal(to)
	if err != nil {
		return nil, false
	}
	return out, true
}
