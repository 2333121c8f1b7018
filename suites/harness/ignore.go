package harness

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/replaycheck/replaycheck/internal/jsondiff"
	"github.com/replaycheck/replaycheck/providers"
)

// normalize returns the canonical form of a chat request body with the
// declared differences taken out: a tool result's name removed, an empty
// or null content of an assistant tool-call turn removed, a tool call's
// "function" type removed. Two bodies that differ only in those
// differences normalise alike. A body that is not a JSON object with a
// messages array comes back canonical, untouched.
func normalize(body []byte, differences []string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var root map[string]any
	if err := dec.Decode(&root); err != nil {
		return jsondiff.Canonical(body)
	}
	messages, _ := root["messages"].([]any)
	for _, m := range messages {
		providers.TakeOut(m, differences)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	return jsondiff.Canonical(bytes.TrimSpace(buf.Bytes()))
}

// needed returns the declared differences a loose match relied on: those
// without which the two bodies no longer normalise alike.
func needed(sent, recorded []byte, declared []string) []string {
	var out []string
	for _, d := range declared {
		rest := slices.DeleteFunc(slices.Clone(declared), func(x string) bool { return x == d })
		a, errA := normalize(sent, rest)
		b, errB := normalize(recorded, rest)
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			out = append(out, d)
		}
	}
	return out
}
