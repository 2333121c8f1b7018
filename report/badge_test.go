package report

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBadges(t *testing.T) {
	got := Badges(sampleMatrix())
	want := []BadgeFile{
		// 16 cells, 5 n/a: 11 judged; 5 pass and 1 advisory pass.
		{"badges/matrix.json", Badge{1, "replaycheck", "6/11 passing", "red"}},
		{"badges/deepseek.json", Badge{1, "deepseek", "1/2 passing", "red"}},
		{"badges/mistral.json", Badge{1, "mistral", "3/3 passing", "brightgreen"}},
		{"badges/anthropic.json", Badge{1, "anthropic", "1/2 passing", "yellow"}},
		{"badges/bedrock-converse-claude.json", Badge{1, "bedrock-converse-claude", "1/4 passing", "red"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("badges (-want +got):\n%s", diff)
	}
	only := func(st Status) *Matrix {
		return &Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{{Target: "a", Scenario: "x", Status: st}}}
	}
	for _, tt := range []struct {
		st     Status
		color  string
		reason string
	}{
		{StatusPass, "brightgreen", "all passing is green"},
		{StatusAdvisory, "brightgreen", "advisory is passing"},
		{StatusUnverified, "yellow", "unverified is not proven"},
		{StatusKnownFail, "yellow", "a known failure is declared, not passing"},
		{StatusFail, "red", "a failure is red"},
		{StatusError, "red", "a cell not judged is red"},
		{StatusNA, "lightgrey", "nothing judged is grey, 0/0"},
	} {
		if b := Badges(only(tt.st))[0].Badge; b.Color != tt.color {
			t.Errorf("%s: colour %s, want %s", tt.reason, b.Color, tt.color)
		}
	}
	var doc map[string]any
	if err := json.Unmarshal(got[0].Badge.encode(), &doc); err != nil || doc["schemaVersion"] != float64(1) || doc["message"] != "6/11 passing" {
		t.Errorf("the endpoint JSON is shields.io's schema: %v %v", doc, err)
	}
}
