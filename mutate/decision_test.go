package mutate_test

import (
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/mutate"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// TestNativeRoutesIgnoreChatOnlyParts: the vendor flags and the private
// native fields are chat shaping's; no native dialect reads them. A table
// that adds a flag and a native-field rule at Anthropic's host decides
// the same for a Messages route there, and differently for a chat route
// to the same host, so the gate replays only the latter.
func TestNativeRoutesIgnoreChatOnlyParts(t *testing.T) {
	head := claudeFixture + `flags:
  - {id: f, hosts: [api.anthropic.com], set: [{path: keep, value: true}], source: https://example.com/f}
native_fields:
  - {field: copilot, hosts: [api.anthropic.com]}
`
	b, err := matrix.Parse("base.yaml", []byte(claudeFixture))
	if err != nil {
		t.Fatal(err)
	}
	h, err := matrix.Parse("head.yaml", []byte(head))
	if err != nil {
		t.Fatal(err)
	}
	same := mutate.SameDecision(&b.Table, &h.Table, scenariotest.Profiles(t, "../providers"))
	for _, tc := range []struct {
		mode engine.APIMode
		want bool
	}{
		{engine.ModeAnthropic, true},
		{engine.ModeChat, false},
	} {
		r := engine.Route{APIMode: tc.mode, Provider: "anthropic", BaseURL: "https://api.anthropic.com", Model: "claude-opus-4-5"}
		if got := same(r); got != tc.want {
			t.Errorf("%s route: same decision %v, want %v", tc.mode, got, tc.want)
		}
	}
}
