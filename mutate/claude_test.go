package mutate_test

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/mutate"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// claudeFixture is a route table around the committed anthropic-opus-4-5
// cassettes: Opus keeps earlier turns' thinking from 4.5 on.
const claudeFixture = `version: 1
default_carriers: [reasoning_content]
anthropic:
  routes:
    - {id: anthropic-direct, replay: signed, prior_thinking: capability, learn_rejections: true, hosts: [api.anthropic.com]}
  prior_thinking:
    families:
      - {name: opus, keeps_from: "4.5"}
    default_keeps_from: "5.0"
    never_generations: ["3"]
targets:
  - {id: anthropic-opus-4-5, api_mode: anthropic, provider: anthropic, base_url: "https://api.anthropic.com", model: claude-opus-4-5, profile: anthropic}
`

// TestClaudeVersionsPruneOnlyMissingVersions: moving Opus's threshold down
// to 4.4 changes the decision only for ids spelling Opus 4.4, which no
// Claude model has by Anthropic's closed id list, so the mutant is
// equivalent and cites the list; without the list it survives on such a
// route. Moving it up to 4.6 reaches claude-opus-4-5, a real model, and
// its target's cells turn red.
func TestClaudeVersionsPruneOnlyMissingVersions(t *testing.T) {
	profiles := scenariotest.Profiles(t, "../providers")
	rep := runWith(t, claudeFixture, profiles)
	down := find(t, rep, "move anthropic.prior_thinking.families[opus].keeps_from from 4.5 to 4.4")
	if down.Outcome != mutate.Equivalent || !strings.Contains(down.Why, "no Claude model is opus 4.4 on any platform (providers/anthropic.yaml serves lists every Claude id: https://platform.claude.com/docs/en/about-claude/model-deprecations") {
		t.Errorf("4.5 to 4.4: %s (%s), want equivalent citing the closed id list", down.Outcome, down.Why)
	}
	if up := find(t, rep, "move anthropic.prior_thinking.families[opus].keeps_from from 4.5 to 4.6"); up.Outcome != mutate.Killed {
		t.Errorf("4.5 to 4.6: %s (%s), want killed by anthropic-opus-4-5", up.Outcome, up.Why)
	}
	bare := runWith(t, claudeFixture, withoutServes(profiles))
	if m := find(t, bare, "move anthropic.prior_thinking.families[opus].keeps_from from 4.5 to 4.4"); m.Outcome != mutate.Survived || !strings.Contains(m.Route, "claude-opus-4-4") {
		t.Errorf("4.5 to 4.4 without the list: %s on %q, want survived on a claude-opus-4-4 route", m.Outcome, m.Route)
	}
}
