package mutate_test

import (
	"context"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/mutate"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// fixture is a small route table around the committed groq cassettes:
// Groq refuses reasoning_content and reads reasoning, and the second row
// is wholly shadowed by the first.
const fixture = `version: 1
carrier_routes:
  - id: strict
    carriers: []
    providers: [groq]
    hosts: [groq.com]
  - id: shadowed
    carriers: [reasoning]
    hosts: [api.groq.com, groq.com]
default_carriers: [reasoning_content]
targets:
  - {id: groq, api_mode: chat, provider: groq, base_url: "https://api.groq.com/openai/v1", model: openai/gpt-oss-120b, profile: groq}
advisories:
  - {target: groq, scenario: carriers, reason: the strict row sends Groq none of the reasoning it reads}
`

func run(t *testing.T, src string, keep ...string) *mutate.Report {
	t.Helper()
	return runEdits(t, src, nil, keep...)
}

// runEdits is run judging only the mutants of edits (all when nil).
func runEdits(t *testing.T, src string, edits []string, keep ...string) *mutate.Report {
	t.Helper()
	base, err := matrix.Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(keep) > 0 {
		var targets []matrix.Target
		for _, id := range keep {
			tg, ok := base.Target(id)
			if !ok {
				t.Fatalf("no target %s", id)
			}
			targets = append(targets, tg)
		}
		base.Targets = targets
	}
	rep, err := mutate.Run(context.Background(), base, []byte(src), mutate.Options{Profiles: scenariotest.Profiles(t, "../providers"), CassetteDir: "../cassettes", Edits: edits})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func find(t *testing.T, rep *mutate.Report, edit string) mutate.Judged {
	t.Helper()
	for _, m := range rep.Mutants {
		if m.Edit == edit {
			return m
		}
	}
	var all []string
	for _, m := range rep.Mutants {
		all = append(all, m.Edit)
	}
	t.Fatalf("no mutant %q among:\n%s", edit, strings.Join(all, "\n"))
	return mutate.Judged{}
}

// TestOutcomes shows each outcome on a mutant whose outcome is known from
// the recorded answers.
func TestOutcomes(t *testing.T) {
	rep := run(t, fixture)
	for _, tc := range []struct {
		edit    string
		outcome mutate.Outcome
		line    int
		detail  string
		reason  string
	}{
		{"add reasoning_content to carrier_routes[strict].carriers", mutate.Killed, 4, "groq/carriers: advisory -> fail",
			"Groq refuses reasoning_content: the gate names the regression"},
		{"add reasoning to carrier_routes[strict].carriers", mutate.Killed, 4, "groq/carriers: advisory -> fail",
			"Groq reads reasoning: the cell passes, so the advisory declaration is stale and fails until it is removed"},
		{"drop groq.com from carrier_routes[strict].hosts", mutate.Survived, 6, "chat (custom, https://api.groq.com/openai/v1, openai/gpt-oss-120b)",
			"the groq target still matches by its provider id; a custom provider id at Groq's host would now get reasoning, and no target takes that route"},
		{"drop api.groq.com from carrier_routes[shadowed].hosts", mutate.Equivalent, 9, "none of",
			"the strict row's groq.com takes every route the shadowed row could"},
		{"drop carrier_routes[strict]", mutate.Killed, 3, "groq/carriers: advisory -> fail",
			"the shadowed row takes Groq and sends it reasoning, which it reads: the advisory declaration is stale"},
	} {
		m := find(t, rep, tc.edit)
		if m.Outcome != tc.outcome {
			t.Errorf("%s: %s (%s %s %s), want %s: %s", tc.edit, m.Outcome, m.Route, m.Cell, m.Why, tc.outcome, tc.reason)
		}
		if m.Line != tc.line {
			t.Errorf("%s: line %d, want %d (the edited entry's line)", tc.edit, m.Line, tc.line)
		}
		if !strings.Contains(m.Cell+" "+m.Route+" "+m.Why, tc.detail) {
			t.Errorf("%s: evidence %q / %q / %q does not name %q", tc.edit, m.Route, m.Cell, m.Why, tc.detail)
		}
	}
	seen, total := rep.Score()
	if seen == 0 || seen >= total {
		t.Errorf("score %d/%d: the fixture has both seen and unseen mutants", seen, total)
	}
}

// TestInvalidMutant: an edit the loader refuses (a row with no match left)
// is invalid, named with the loader's error, and not scored.
func TestInvalidMutant(t *testing.T) {
	src := strings.Replace(fixture, "    providers: [groq]\n    hosts: [groq.com]\n", "    hosts: [groq.com]\n", 1)
	rep := run(t, src)
	m := find(t, rep, "drop groq.com from carrier_routes[strict].hosts")
	if m.Outcome != mutate.Invalid || !strings.Contains(m.Why, "empty match") {
		t.Errorf("%s: %s (%s), want invalid with the loader's empty-match error", m.Edit, m.Outcome, m.Why)
	}
}

// TestUnverifiedMutant: a flag setting no cassette has an answer for is
// unverified, never "no change". The battery records the kimi cassettes'
// flags whole, without, and with one value changed; the edit here sends
// thinking.type alone, which it never recorded.
func TestUnverifiedMutant(t *testing.T) {
	src := `version: 1
default_carriers: [reasoning_content]
flags:
  - id: kimi-keep-all
    providers: [kimi-coding]
    models: [kimi-k2.7]
    set:
      - {path: thinking.type, value: enabled}
    source: https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model
echo_families:
  - {name: kimi, providers_raw: [kimi-coding]}
targets:
  - {id: kimi, api_mode: chat, provider: kimi-coding, base_url: "https://api.kimi.com/coding/v1", model: kimi-k2.6, profile: kimi}
`
	rep := run(t, src)
	m := find(t, rep, "drop kimi-k2.7 from flags[kimi-keep-all].models")
	if m.Outcome != mutate.Unverified || !strings.Contains(m.Why, "no recorded answer") {
		t.Errorf("%s: %s (%s), want unverified: the cassette holds no answer to that flag setting", m.Edit, m.Outcome, m.Why)
	}
}

// TestAliasKillsWhatTheTargetMisses: on the committed table, each edit
// survives the exact target and is killed by one of its aliases: dropping
// api.kimi.com from the kimi must-echo family, or groq.com from the strict
// row; a must-echo provider id behind a proxy that renames the model; a
// Fireworks proxy on an internal name (the local rule then sends reasoning,
// which Fireworks refuses); a vLLM server, Ollama's cloud API or Upstage
// reached by a provider id or host only the local-family row lists (the
// default then sends only reasoning_content, and the server reads
// reasoning; Upstage's profile assumes it does); the
// DashScope models preserve_thinking is documented for besides the
// target's; and an older Claude dropped from the Converse claude-legacy row
// (it falls to the claude row, which requests thinking, and is refused);
// and DeepSeek's host dropped from its must-echo family, which an Anthropic
// SDK pointed at DeepSeek's Anthropic endpoint needs; the local rule's
// dotless names and Tailscale range, which a vLLM server by its
// docker-compose service name or its tailnet address needs; and each
// entry of the Vertex native-field rule, its field and the rule itself,
// which a tuned Gemini model at its own Vertex endpoint (an id without
// "gemini") needs under each provider id and at each Vertex host.
func TestAliasKillsWhatTheTargetMisses(t *testing.T) {
	src := readMatrix(t)
	// Without the aliases each survives: some probe decides differently.
	// Dropping Moonshot's or OpenClaw's id from the Kimi flag changes no
	// route the bare target reaches by one part, but the rule's own
	// patterns build Kimi K2.6 under that provider id at another host,
	// a route the table reaches (probes; kimi~7 and kimi~8 take it).
	type edit struct{ target, edit, cell string }
	cases := []edit{
		{"kimi", "drop api.kimi.com from echo_families[kimi].hosts", "kimi~1/missing-echo"},
		// LiteLLM's and OpenClaw's provider ids for Kimi through a proxy:
		// without the pad Kimi refuses the tool turn, without the flag it
		// no longer keeps earlier reasoning.
		{"kimi", "drop moonshot from echo_families[kimi].providers", "kimi~7/missing-echo: pass -> fail"},
		{"kimi", "drop kimi from echo_families[kimi].providers", "kimi~8/missing-echo: pass -> fail"},
		{"kimi", "drop moonshot from flags[kimi-keep-all].providers", "kimi~7/flags: pass -> fail"},
		{"kimi", "drop kimi from flags[kimi-keep-all].providers", "kimi~8/flags: pass -> fail"},
		// Gemini by its provider id through a proxy that names the model its
		// own way: without the rule the per-call signature is not sent, and
		// Gemini 3 refuses the tool call.
		{"gemini-openai", "drop gemini from native_fields[1].providers", "gemini-openai~3/carriers: pass -> fail"},
		{"gemini-openai", "drop native_fields[1]", "gemini-openai~3/carriers: pass -> fail"},
		{"groq", "drop groq.com from carrier_routes[strict].hosts", "groq~1/"},
		{"deepseek", "drop deepseek from echo_families[deepseek].providers", "deepseek~2/missing-echo"},
		{"mimo", "drop xiaomi from echo_families[mimo].providers", "mimo~4/missing-echo"},
		{"fireworks", "drop fireworks from carrier_routes[fireworks].providers", "fireworks~3/carriers: pass -> fail"},
		{"vllm", "drop custom from carrier_routes[local-family].providers", "vllm~3/carriers: pass -> fail"},
		{"vllm", "drop reasoning from carrier_routes[local-family].carriers", "vllm~3/carriers: pass -> fail"},
		{"ollama-cloud", "drop ollama.com from carrier_routes[local-family].hosts", "ollama-cloud~1/carriers: pass -> fail"},
		{"ollama-cloud", "drop ollama-cloud from carrier_routes[local-family].providers", "ollama-cloud~2/carriers: pass -> fail"},
		{"upstage", "drop upstage.ai from carrier_routes[local-family].hosts", "upstage~1/carriers: pass -> fail"},
		{"upstage", "drop upstage from carrier_routes[local-family].providers", "upstage~2/carriers: pass -> fail"},
		{"dashscope", "drop qwen3.7 from flags[dashscope-preserve-thinking].models", "dashscope~8/flags"},
		{"dashscope", "drop kimi-k2.6 from flags[dashscope-preserve-thinking].models", "dashscope~9/flags"},
		// Claude 3 Haiku falls to the claude row, which requests thinking:
		// refused ("does not support thinking", anthropics/claude-code#2507).
		{"bedrock-converse-claude-legacy", "drop claude-3-haiku from bedrock_converse.models[claude-legacy].models", "bedrock-converse-claude-legacy~1/"},
		{"bedrock-converse-claude-legacy", "drop claude-v2 from bedrock_converse.models[claude-legacy].models", "bedrock-converse-claude-legacy~5/"},
		// The Anthropic SDK's provider at DeepSeek's Anthropic endpoint loses
		// the pad, and DeepSeek refuses a tool turn without thinking.
		{"deepseek-anthropic-claude-name", "drop api.deepseek.com from echo_families[deepseek].hosts", "deepseek-anthropic-claude-name~1/missing-echo: pass -> fail"},
		// Without the local rule the route gets the default row, which sends
		// no `reasoning`, and vLLM reads only `reasoning`.
		{"vllm", "set local_endpoint.dotless_hostnames to false", "vllm~4/carriers: pass -> fail"},
		{"vllm", "drop 100.64.0.0/10 from local_endpoint.ranges", "vllm~5/carriers: pass -> fail"},
		// Without the Gemini fields the tuned model's tool call lacks its
		// per-call signature, and Vertex refuses it.
		{"vertex-gemini-openai", "drop native_fields[2]", "vertex-gemini-openai~3/carriers: pass -> fail"},
		{"vertex-gemini-openai", "set native_fields[2].field to copilot", "vertex-gemini-openai~3/carriers: pass -> fail"},
		{"vertex-gemini-openai", "drop aiplatform.googleapis.com from native_fields[2].hosts", "vertex-gemini-openai~4/carriers: pass -> fail"},
		{"vertex-gemini-openai", "drop *-aiplatform.googleapis.com from native_fields[2].host_patterns", "vertex-gemini-openai~5/carriers: pass -> fail"},
		{"vertex-gemini-openai", "drop vertex from native_fields[2].providers", "vertex-gemini-openai~6/carriers: pass -> fail"},
		{"vertex-gemini-openai", "drop vertex-ai from native_fields[2].providers", "vertex-gemini-openai~7/carriers: pass -> fail"},
		{"vertex-gemini-openai", "drop google-vertex from native_fields[2].providers", "vertex-gemini-openai~8/carriers: pass -> fail"},
	}
	// Each target's two mutation runs are independent of the others': the
	// targets run side by side.
	var targets []string
	byTarget := map[string][]edit{}
	for _, tc := range cases {
		if byTarget[tc.target] == nil {
			targets = append(targets, tc.target)
		}
		byTarget[tc.target] = append(byTarget[tc.target], tc)
	}
	for _, target := range targets {
		t.Run(target, func(t *testing.T) {
			t.Parallel()
			var edits []string
			for _, tc := range byTarget[target] {
				edits = append(edits, tc.edit)
			}
			withAliases, withoutAliases := runEdits(t, src, edits, target), runWithoutAliases(t, src, target, edits...)
			if len(withAliases.Mutants) != len(edits) {
				t.Fatalf("Options.Edits kept %d mutants, want the %d named", len(withAliases.Mutants), len(edits))
			}
			for _, tc := range byTarget[target] {
				with := find(t, withAliases, tc.edit)
				if with.Outcome != mutate.Killed || !strings.HasPrefix(with.Cell, tc.cell) {
					t.Errorf("%s with the aliases: %s (%s), want killed at %s", tc.edit, with.Outcome, with.Cell, tc.cell)
				}
				without := find(t, withoutAliases, tc.edit)
				if without.Outcome != mutate.Survived {
					t.Errorf("%s without the aliases: %s (%s), want survived", tc.edit, without.Outcome, without.Why)
				}
			}
		})
	}
}

// TestCommittedAliasesJudgeLikeTheirTargets: under the committed table
// every alias's cells are its target's, so each alias is the same endpoint
// reached another way, and a mutant's effect on it is the edit's alone;
// only a cell the table declares for the alias itself may differ (glm~8
// and kimi~9, a provider's id through a proxy that renames the model,
// lose the vendor flag their target gets: known failures of their own).
func TestCommittedAliasesJudgeLikeTheirTargets(t *testing.T) {
	base, err := matrix.Parse("matrix.yaml", []byte(readMatrix(t)))
	if err != nil {
		t.Fatal(err)
	}
	if diff := mutate.AliasBaseline(context.Background(), base, mutate.Options{Profiles: scenariotest.Profiles(t, "../providers"), CassetteDir: "../cassettes"}); len(diff) > 0 {
		t.Errorf("aliases judged unlike their targets:\n%s", strings.Join(diff, "\n"))
	}
}

// TestAliasBaselineNamesAnAliasUnlikeItsTarget: an alias the table sends
// reasoning_content (a custom id through a proxy matches no row) is named.
func TestAliasBaselineNamesAnAliasUnlikeItsTarget(t *testing.T) {
	src := strings.Replace(fixture, "profile: groq}", "profile: groq,\n     aliases: [{provider: custom, base_url: \"https://llm-proxy.example.com/groq/v1\", model: openai/gpt-oss-120b, note: n}]}", 1)
	base, err := matrix.Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	diff := mutate.AliasBaseline(context.Background(), base, mutate.Options{Profiles: scenariotest.Profiles(t, "../providers"), CassetteDir: "../cassettes"})
	if len(diff) == 0 || !strings.HasPrefix(diff[0], "groq~1/carriers: fail, but groq/carriers is advisory") {
		t.Errorf("want groq~1/carriers named as failing where its target is advisory; got %q", diff)
	}
}

// TestResponsesFamilyIdIsALabel: a Responses family decides which
// hostnames share reasoning items, not what the family is called (the
// engine stores the issuing route and compares families within one
// table). Dropping a per-host family (azure-openai; openai, whose regions
// seal items of their own) leaves every hostname its own issuer, as
// before: equivalent. Making the openai family one issuer again lets a
// turn issued at eu.api.openai.com go back to api.openai.com, which
// refuses it (dust-tt/dust#18119): killed.
func TestResponsesFamilyIdIsALabel(t *testing.T) {
	rep := run(t, readMatrix(t), "azure-openai-responses", "openai-responses")
	for _, edit := range []string{"drop responses.families[azure-openai]", "drop responses.families[openai]"} {
		if m := find(t, rep, edit); m.Outcome != mutate.Equivalent {
			t.Errorf("%s: %s (%s: %s), want equivalent", m.Edit, m.Outcome, m.Route, m.Change)
		}
	}
	m := find(t, rep, "set responses.families[openai].per_host to false")
	if m.Outcome != mutate.Killed || m.Cell != "openai-responses/carriers: pass -> fail" || !strings.Contains(m.Change, "host:api.openai.com -> family:api.openai.com") {
		t.Errorf("%s: %s at %s (%s: %s), want killed at openai-responses/carriers by the shared issuers", m.Edit, m.Outcome, m.Cell, m.Route, m.Change)
	}
}

// TestUndocumentedFlagValueIsKilled: the variant battery records each
// flag value changed as this operator changes it, so sending Z.ai or
// Moonshot a thinking.type they do not document is judged from the
// cassettes: killed by the provider's refusal, not unverified.
func TestUndocumentedFlagValueIsKilled(t *testing.T) {
	rep := run(t, readMatrix(t), "glm", "kimi")
	for edit, cell := range map[string]string{
		"set flags[glm-preserved-thinking] thinking.type to enabled-changed": "glm/carriers: pass -> fail",
		"set flags[kimi-keep-all] thinking.type to enabled-changed":          "kimi/carriers: pass -> fail",
	} {
		if m := find(t, rep, edit); m.Outcome != mutate.Killed || m.Cell != cell {
			t.Errorf("%s: %s at %s (%s), want killed at %s", edit, m.Outcome, m.Cell, m.Why, cell)
		}
	}
}

// TestRenamingProxyKeepsNoFlag: a vendor flag rule names its models by
// substring, so a provider's id through a proxy that names the model its
// own way gets no flag (glm~8, kimi~9: known failures of their own).
// Dropping the rule's model entry gives them the flag back: the cell
// passes, so its declaration is stale, which the gate notices.
func TestRenamingProxyKeepsNoFlag(t *testing.T) {
	edits := map[string]string{
		"drop glm from flags[glm-preserved-thinking].models": "glm~8/flags: known-fail -> fail",
		"drop kimi-k2.6 from flags[kimi-keep-all].models":    "kimi~9/flags: known-fail -> fail",
	}
	var names []string
	for e := range edits {
		names = append(names, e)
	}
	rep := runEdits(t, readMatrix(t), names, "glm", "kimi")
	for edit, cell := range edits {
		if m := find(t, rep, edit); m.Outcome != mutate.Noticed || m.Cell != cell || !strings.Contains(m.Why, "passes now") {
			t.Errorf("%s: %s at %q (%s), want noticed at %s", edit, m.Outcome, m.Cell, m.Why, cell)
		}
	}
}
