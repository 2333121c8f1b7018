package mutate_test

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/mutate"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// pathsFixture is the committed Foundry, MiniMax and Vertex Anthropic
// route classes, and Vertex's request shape, around their committed
// cassettes.
const pathsFixture = `version: 1
default_carriers: [reasoning_content]
anthropic:
  routes:
    - {id: anthropic-direct, replay: signed, prior_thinking: capability, learn_rejections: true, hosts: [api.anthropic.com]}
    - {id: foundry, replay: signed, prior_thinking: capability, learn_rejections: true, host_patterns: ["*.services.ai.azure.com"], paths: [/anthropic]}
    - {id: minimax, replay: signed, prior_thinking: always, hosts: [api.minimax.io, api.minimaxi.com], paths: [/anthropic]}
    - {id: vertex, replay: signed, prior_thinking: capability, learn_rejections: true, host_patterns: ["*-aiplatform.googleapis.com", aiplatform.googleapis.com], paths: [/publishers/anthropic]}
  platforms:
    - {platform: vertex, host_patterns: ["*-aiplatform.googleapis.com", aiplatform.googleapis.com], paths: [/publishers/anthropic]}
  prior_thinking:
    families:
      - {name: opus, keeps_from: "4.5"}
    default_keeps_from: "5.0"
    never_generations: ["3"]
targets:
  - {id: foundry-anthropic, api_mode: anthropic, provider: foundry, base_url: "https://demo-resource.services.ai.azure.com/anthropic", model: claude-opus-4-6, profile: foundry-anthropic}
  - {id: minimax-anthropic, api_mode: anthropic, provider: minimax, base_url: "https://api.minimax.io/anthropic", model: MiniMax-M2.7, profile: minimax-anthropic}
  - {id: vertex-anthropic, api_mode: anthropic, provider: vertex, base_url: "https://us-east5-aiplatform.googleapis.com/v1/projects/demo/locations/us-east5/publishers/anthropic/models", model: claude-opus-4-6, profile: vertex-anthropic}
`

// TestServedPathsProveEquivalence: Foundry and MiniMax serve the Messages
// API under /anthropic only, and Vertex under /publishers/anthropic only
// (serves.paths), so dropping a route class's or a platform's path changes
// only routes whose base URL lacks it, which reach no Messages call: the
// mutants are equivalent, with the declaration as the reason. Without the
// declaration each survives on a probe of the host.
func TestServedPathsProveEquivalence(t *testing.T) {
	profiles := scenariotest.Profiles(t, "../providers")
	rep := runWith(t, pathsFixture, profiles)
	for _, tc := range []struct{ edit, profile, reason string }{
		{"drop /anthropic from anthropic.routes[foundry].paths", "foundry-anthropic", ".services.ai.azure.com: only /anthropic (providers/foundry-anthropic.yaml serves: "},
		{"drop /anthropic from anthropic.routes[minimax].paths", "minimax-anthropic", "api.minimax.io: only /anthropic (providers/minimax-anthropic.yaml serves: "},
		{"drop /publishers/anthropic from anthropic.routes[vertex].paths", "vertex-anthropic", "aiplatform.googleapis.com: only /publishers/anthropic (providers/vertex-anthropic.yaml serves: "},
		{"drop /publishers/anthropic from anthropic.platforms[vertex].paths", "vertex-anthropic", "aiplatform.googleapis.com: only /publishers/anthropic (providers/vertex-anthropic.yaml serves: "},
	} {
		if m := find(t, rep, tc.edit); m.Outcome != mutate.Equivalent || !strings.Contains(m.Why, "is no path the anthropic API is served under at ") || !strings.Contains(m.Why, tc.reason) {
			t.Errorf("%s: %s on %q (%s), want equivalent by %s's serves.paths", tc.edit, m.Outcome, m.Route, m.Why, tc.profile)
		}
		open := runWith(t, pathsFixture, withServes(profiles, tc.profile, func(s *providers.Serves) { s.Paths = nil }))
		if m := find(t, open, tc.edit); m.Outcome != mutate.Survived {
			t.Errorf("%s without %s's serves.paths: %s on %q, want a survivor", tc.edit, tc.profile, m.Outcome, m.Route)
		}
	}
}

// TestServedPathsSpeakForEveryVertexRegion: Vertex AI numbers its hosts by
// region ({LOCATION}-aiplatform.googleapis.com), which the profile names by
// pattern. Without the pattern the profile speaks for its global host only,
// and a regional probe without /publishers/anthropic keeps the path edits
// alive.
func TestServedPathsSpeakForEveryVertexRegion(t *testing.T) {
	profiles := scenariotest.Profiles(t, "../providers")
	vertex := *profiles["vertex-anthropic"]
	if !vertex.PatternNames("europe-west1-aiplatform.googleapis.com") || vertex.PatternNames("aiplatform.googleapis.com.evil.example") {
		t.Fatalf("vertex-anthropic's host patterns %v name the wrong hosts", vertex.HostPatterns)
	}
	vertex.HostPatterns = nil
	unpatterned := map[string]*providers.Profile{}
	for n, p := range profiles {
		unpatterned[n] = p
	}
	unpatterned["vertex-anthropic"] = &vertex
	rep := runWith(t, pathsFixture, unpatterned)
	for _, edit := range []string{"drop /publishers/anthropic from anthropic.routes[vertex].paths", "drop /publishers/anthropic from anthropic.platforms[vertex].paths"} {
		if m := find(t, rep, edit); m.Outcome != mutate.Survived || !strings.Contains(m.Route, "-aiplatform.googleapis.com") {
			t.Errorf("%s without the regional pattern: %s on %q, want a survivor at a regional host", edit, m.Outcome, m.Route)
		}
	}
}
