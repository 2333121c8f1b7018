package providers

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestTakeOut removes only the declared differences, and only where they
// apply.
func TestTakeOut(t *testing.T) {
	all := Differences()
	tests := []struct {
		msg, want string
		declared  []string
		changed   []string
		reason    string
	}{
		{`{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function"}]}`, `{"role":"assistant","tool_calls":[{"id":"a"}]}`,
			all, []string{DifferenceToolCallContent, DifferenceToolCallType}, "null content beside tool calls and the call's type go"},
		{`{"role":"assistant","content":"","tool_calls":[{"id":"a"}]}`, `{"role":"assistant","content":"","tool_calls":[{"id":"a"}]}`,
			[]string{DifferenceToolResultName}, nil, "an undeclared difference stays"},
		{`{"role":"assistant","content":null}`, `{"role":"assistant","content":null}`,
			all, nil, "no tool calls: the content is the turn's, not a declared difference"},
		{`{"role":"assistant","content":"x","tool_calls":[{"id":"a"}]}`, `{"role":"assistant","content":"x","tool_calls":[{"id":"a"}]}`,
			all, nil, "a non-empty content is never taken out"},
		{`{"role":"tool","name":"f","content":"1"}`, `{"role":"tool","content":"1"}`,
			all, []string{DifferenceToolResultName}, "a tool result's name"},
		{`{"role":"user","name":"f","content":"1"}`, `{"role":"user","name":"f","content":"1"}`,
			all, nil, "a user's name is not a tool result's"},
	}
	for _, tc := range tests {
		var m any
		if err := json.Unmarshal([]byte(tc.msg), &m); err != nil {
			t.Fatal(err)
		}
		changed := TakeOut(m, tc.declared)
		got, _ := json.Marshal(m)
		var want any
		_ = json.Unmarshal([]byte(tc.want), &want)
		w, _ := json.Marshal(want)
		if string(got) != string(w) || !slices.Equal(changed, tc.changed) {
			t.Errorf("%s: got %s %v, want %s %v", tc.reason, got, changed, w, tc.changed)
		}
	}
	if TakeOut("text", all) != nil {
		t.Error("a value that is not an object changed")
	}
}
