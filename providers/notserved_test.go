package providers

import (
	"reflect"
	"testing"
)

func TestNotServedPaths(t *testing.T) {
	p := &Profile{Rules: []Rule{
		{When: Condition{Kind: ConditionPathNotServed, Field: "/v1/messages"}},
		{When: Condition{Kind: ConditionToolTurnFieldMissing, Field: "reasoning_content"}},
		{When: Condition{Kind: ConditionPathNotServed, Field: "/v1/complete"}},
	}}
	if got, want := p.NotServedPaths(), []string{"/v1/messages", "/v1/complete"}; !reflect.DeepEqual(got, want) {
		t.Errorf("paths %q, want the path_not_served fields %q", got, want)
	}
	if got := (&Profile{}).NotServedPaths(); got != nil {
		t.Errorf("a profile without the rule: %q", got)
	}
	if got := (*Profile)(nil).NotServedPaths(); got != nil {
		t.Errorf("no profile: %q", got)
	}
}
