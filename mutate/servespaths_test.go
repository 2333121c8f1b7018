package mutate_test

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/mutate"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// pathsFixture is the committed Foundry and MiniMax Anthropic route
// classes around their committed cassettes.
const pathsFixture = `version: 1
default_carriers: [reasoning_content]
anthropic:
  routes:
    - {id: anthropic-direct, replay: signed, prior_thinking: capability, learn_rejections: true, hosts: [api.anthropic.com]}
    - {id: foundry, replay: signed, prior_thinking: capability, learn_rejections: true, host_patterns: ["*.services.ai.azure.com"], paths: [/anthropic]}
    - {id: minimax, replay: signed, prior_thinking: always, hosts: [api.minimax.io, api.minimaxi.com], paths: [/anthropic]}
  prior_thinking:
    families:
      - {name: opus, keeps_from: "4.5"}
    default_keeps_from: "5.0"
    never_generations: ["3"]
targets:
  - {id: foundry-anthropic, api_mode: anthropic, provider: foundry, base_url: "https://demo-resource.services.ai.azure.com/anthropic", model: claude-opus-4-6, profile: foundry-anthropic}
  - {id: minimax-anthropic, api_mode: anthropic, provider: minimax, base_url: "https://api.minimax.io/anthropic", model: MiniMax-M2.7, profile: minimax-anthropic}
`

// TestServedPathsProveEquivalence: Foundry and MiniMax serve the Messages
// API under /anthropic only (serves.paths), so dropping a route class's
// /anthropic changes only routes whose base URL lacks it, which reach no
// Messages call: the mutants are equivalent, with the declaration as the
// reason. Without the declaration each survives on a probe of the host.
func TestServedPathsProveEquivalence(t *testing.T) {
	profiles := scenariotest.Profiles(t, "../providers")
	rep := runWith(t, pathsFixture, profiles)
	for _, tc := range []struct{ edit, profile, reason string }{
		{"drop /anthropic from anthropic.routes[foundry].paths", "foundry-anthropic", ".services.ai.azure.com: only /anthropic (providers/foundry-anthropic.yaml serves: "},
		{"drop /anthropic from anthropic.routes[minimax].paths", "minimax-anthropic", "api.minimax.io: only /anthropic (providers/minimax-anthropic.yaml serves: "},
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
