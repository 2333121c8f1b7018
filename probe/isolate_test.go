package probe_test

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/providers"
)

// TestProbeIsolatesEachRule: a carrier is refused only when adding it to
// an accepted body is refused. A must-echo provider refuses every variant
// without reasoning_content, whatever else it carries, so its 400s say
// nothing of reasoning or reasoning_details: both are accepted beside
// reasoning_content. blank_is_missing follows the answer to "" alone. Each
// conclusion names the variants that show it, and so does its rule.
func TestProbeIsolatesEachRule(t *testing.T) {
	tests := []struct {
		profile, model string
		accepted       []engine.Carrier
		refused        []engine.Carrier
		mustEcho       bool
		blank          bool
		shows          []string
		reason         string
	}{
		{"deepseek", "acme-reasoner", engine.AllCarriers, nil, true, false,
			[]string{"reasoning: accepted on an assistant message (shown by strict-schema battery, variant {reasoning_content, reasoning}: 200",
				"reasoning_details: accepted on an assistant message (shown by strict-schema battery, variant {reasoning_content, reasoning_details}: 200",
				`reasoning_content "": accepted`},
			"a DeepSeek-like provider that takes \"\" (the legacy rule: only a missing key is refused)"},
		{"deepseek", "deepseek-v4-flash", engine.AllCarriers, nil, true, true,
			[]string{`reasoning_content "": refused: "" counts as missing (blank_is_missing: true) (shown by missing-echo battery, the same turn with reasoning_content "": 400`},
			"DeepSeek V4 refuses \"\" like a missing key"},
		{"mistral", "acme-reasoner", nil, engine.AllCarriers, false, false,
			[]string{"reasoning: refused on an assistant message (shown by strict-schema battery, variant {}: 200 (interaction 1); against strict-schema battery, variant {reasoning}: 422"},
			"a strict schema refuses each carrier added to an accepted bare body"},
	}
	for _, tt := range tests {
		res, _ := probeSim(t, tt.profile, engine.ModeChat, "/v1", tt.model)
		for _, c := range tt.accepted {
			if !res.Accepted[c] {
				t.Errorf("%s %s: %s not accepted: %s", tt.profile, tt.model, c, tt.reason)
			}
		}
		for _, c := range engine.AllCarriers {
			_, refused := res.Refused[c]
			want := false
			for _, r := range tt.refused {
				want = want || r == c
			}
			if refused != want {
				t.Errorf("%s %s: %s refused %v, want %v: %s", tt.profile, tt.model, c, refused, want, tt.reason)
			}
		}
		if res.MustEcho != tt.mustEcho || res.BlankIsMissing != tt.blank {
			t.Errorf("%s %s: must-echo %v blank_is_missing %v, want %v %v: %s", tt.profile, tt.model, res.MustEcho, res.BlankIsMissing, tt.mustEcho, tt.blank, tt.reason)
		}
		var findings []string
		for _, f := range res.Findings {
			findings = append(findings, f.String())
		}
		all := strings.Join(findings, "\n")
		for _, want := range tt.shows {
			if !strings.Contains(all, want) {
				t.Errorf("%s %s: no finding shows %q:\n%s", tt.profile, tt.model, want, all)
			}
		}
		for _, r := range res.Draft.Rules {
			if !strings.Contains(r.Note, "shown by ") || !strings.Contains(r.Note, "battery, ") {
				t.Errorf("%s %s: rule %s names no variant as its evidence: %q", tt.profile, tt.model, r.ID, r.Note)
			}
			if r.When.Kind == providers.ConditionToolTurnFieldMissing && r.When.BlankIsMissing != tt.blank {
				t.Errorf("%s %s: rule %s blank_is_missing %v, want %v", tt.profile, tt.model, r.ID, r.When.BlankIsMissing, tt.blank)
			}
		}
		// A model id naming DeepSeek is padded by the deepseek family already.
		if tt.mustEcho && !strings.Contains(tt.model, "deepseek") && !strings.Contains(res.RouteYAML(), "echo_families") {
			t.Errorf("%s %s: no must-echo family proposed:\n%s", tt.profile, tt.model, res.RouteYAML())
		}
	}
}
