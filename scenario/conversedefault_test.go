package scenario_test

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// TestNovaRefusesAnthropicThinking: the unsigned-reasoners row matches
// Nova Pro by nova, and Nova's schema refuses Anthropic's thinking key in
// additionalModelRequestFields (providers/bedrock-converse-nova-pro.yaml),
// so a row that requests thinking fails every cell of the target on the
// recorded refusal.
func TestNovaRefusesAnthropicThinking(t *testing.T) {
	ask := converseRow("unsigned-reasoners", func(m *engine.ConverseModel) { m.RequestThinking = true })
	for _, scen := range []string{"carriers", "resume", "compaction", "branch"} {
		if c := committedCell(t, "bedrock-converse-nova-pro", scen, nil); c.Status != report.StatusPass {
			t.Errorf("bedrock-converse-nova-pro/%s = %s (%s) under the committed table", scen, c.Status, c.Detail)
		}
		c := committedCell(t, "bedrock-converse-nova-pro", scen, ask)
		if c.Status != report.StatusFail || !strings.Contains(c.ProviderError, "extraneous key [thinking] is not permitted") {
			t.Errorf("thinking requested: bedrock-converse-nova-pro/%s = %s (%s; provider %q), want fail on Nova's refusal", scen, c.Status, c.Detail, c.ProviderError)
		}
	}
}

// TestDefaultReplayDecidesForGPTOnConverse: no Converse row names OpenAI's
// GPT models, so default_replay decides for bedrock-converse-openai. Under
// the committed stripped default the redactedContent blob GPT-5.6 returns
// and reads is dropped (compaction advisory, signed-roundtrip failing as
// a known failure); a default that replays it, signed or unsigned (a
// redacted blob goes back under either), makes compaction pass and the known failure
// pass (reported as a stale declaration).
func TestDefaultReplayDecidesForGPTOnConverse(t *testing.T) {
	if c := committedCell(t, "bedrock-converse-openai", "compaction", nil); c.Status != report.StatusAdvisory || !strings.Contains(c.Detail, "strips reasoningContent") {
		t.Errorf("bedrock-converse-openai/compaction = %s (%s) under the committed table, want advisory", c.Status, c.Detail)
	}
	if c := committedCell(t, "bedrock-converse-openai", "signed-roundtrip", nil); c.Status != report.StatusFail && c.Status != report.StatusKnownFail {
		t.Errorf("bedrock-converse-openai/signed-roundtrip = %s (%s) under the committed table, want the blob missing", c.Status, c.Detail)
	}
	for _, r := range []engine.ReasoningReplay{engine.ReplaySigned, engine.ReplayUnsigned} {
		edit := func(t *engine.Table) { t.Dialects.Converse.DefaultReplay = r }
		// The cell passes, which the matrix reports as a stale advisory
		// declaration.
		if c := committedCell(t, "bedrock-converse-openai", "compaction", edit); c.Status != report.StatusFail || !strings.Contains(c.Detail, "declared as an advisory") {
			t.Errorf("default_replay %s: bedrock-converse-openai/compaction = %s (%s), want it passing, so its declaration stale", r, c.Status, c.Detail)
		}
		// The known failure starts passing, which the matrix reports as
		// a stale declaration.
		if c := committedCell(t, "bedrock-converse-openai", "signed-roundtrip", edit); !strings.Contains(c.Detail, "passes now") {
			t.Errorf("default_replay %s: bedrock-converse-openai/signed-roundtrip = %s (%s), want the known failure passing", r, c.Status, c.Detail)
		}
	}
}

// advised reports whether a cell is judged advisory: the provider reads
// reasoning the route does not send. Declared, the cell is advisory;
// undeclared, it fails as an undeclared advisory.
func advised(c report.Cell) bool {
	return c.Status == report.StatusAdvisory || (c.Status == report.StatusFail && strings.HasPrefix(c.Detail, scenario.UndeclaredAdvisory))
}
