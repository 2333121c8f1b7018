package mutate_test

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/mutate"
)

// TestClaudePlatformReplayIsScored: the seed's Claude-platform regression,
// Claude's signed thinking no longer replayed on Bedrock, Vertex or
// Foundry, is one edit of a maintainer: the route class's replay and its
// learn_rejections together (the loader refuses learning on a route that
// sends no signature). Each of the six is judged, not invalid, and the
// platform's own target refuses the tool loop without its signed block.
func TestClaudePlatformReplayIsScored(t *testing.T) {
	var edits []string
	for _, route := range []string{"bedrock", "vertex", "foundry"} {
		for _, to := range []string{"unsigned", "stripped"} {
			edits = append(edits, "set anthropic.routes["+route+"].replay to "+to+" and learn_rejections to false")
		}
	}
	rep := runEdits(t, readMatrix(t), edits, "bedrock-anthropic", "vertex-anthropic", "foundry-anthropic")
	if len(rep.Mutants) != len(edits) {
		var got []string
		for _, m := range rep.Mutants {
			got = append(got, m.Edit)
		}
		t.Fatalf("mutants %q, want the six edits %q", got, edits)
	}
	for _, m := range rep.Mutants {
		target := strings.TrimSuffix(strings.TrimPrefix(m.Edit, "set anthropic.routes["), "]")
		target = target[:strings.Index(target, "]")] + "-anthropic/"
		if m.Outcome != mutate.Killed || !strings.HasPrefix(m.Cell, target) {
			t.Errorf("%s: %s at %q (%s), want killed at a %s cell", m.Edit, m.Outcome, m.Cell, m.Why, target)
		}
	}
}
