package sim

import (
	"encoding/json"
	"reflect"
	"regexp"
	"sort"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/providers"
)

var memoRE = regexp.MustCompile(`\[memo:([0-9a-f]{8})\]`)

// visibleMemos lists, sorted and unique, the memos in replayed reasoning the
// model can see: only carriers in Profile.Reads count, and when the profile
// has a keeps-prior-reasoning flag for this model that the request does not
// carry, only reasoning after the last user turn counts.
func (s *Simulator) visibleMemos(q *request, c conversation) []string {
	currentOnly := s.priorReasoningDropped(q)
	seen := map[string]bool{}
	for _, r := range c.replayed {
		if !s.reads(r.carrier) || (currentOnly && r.index < c.lastUser) {
			continue
		}
		for _, m := range memoRE.FindAllStringSubmatch(r.text, -1) {
			seen["memo:"+m[1]] = true
		}
	}
	out := make([]string, 0, len(seen))
	for m := range seen {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// priorReasoningDropped is true when a keeps-prior-reasoning flag applies to
// the model and the request carries none of them.
func (s *Simulator) priorReasoningDropped(q *request) bool {
	applies := false
	for _, f := range s.p.Flags {
		if f.Effect != providers.EffectKeepsPriorReasoning || !f.AppliesTo(q.model) {
			continue
		}
		if flagSet(q.root, f) {
			return false
		}
		applies = true
	}
	return applies
}

// flagSet reports whether the request carries flag f: the value at f.Path
// equals f.Value.
func flagSet(root gjson.Result, f providers.Flag) bool {
	v := root.Get(f.Path)
	if !v.Exists() {
		return false
	}
	switch want := f.Value.(type) {
	case nil:
		return v.Type == gjson.Null
	case bool:
		return (want && v.Type == gjson.True) || (!want && v.Type == gjson.False)
	case string:
		return v.Type == gjson.String && v.Str == want
	case int:
		return v.Type == gjson.Number && v.Num == float64(want)
	case int64:
		return v.Type == gjson.Number && v.Num == float64(want)
	case uint64:
		return v.Type == gjson.Number && v.Num == float64(want)
	case float64:
		return v.Type == gjson.Number && v.Num == want
	}
	wantJSON, err := json.Marshal(f.Value)
	if err != nil {
		return false
	}
	var a, b any
	if json.Unmarshal(wantJSON, &a) != nil || json.Unmarshal([]byte(v.Raw), &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}
