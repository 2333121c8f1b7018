package gate_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/gate"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

func TestGate(t *testing.T) {
	raw, base, profiles, dir := recordCommitted(t, "deepseek", "mistral", "cerebras", "openrouter")
	// Judge only the recorded targets.
	keep := func(f *matrix.File) *matrix.File {
		out := *f
		out.Targets = nil
		for _, id := range []string{"deepseek", "mistral", "cerebras", "openrouter"} {
			tg, _ := f.Target(id)
			out.Targets = append(out.Targets, tg)
		}
		return &out
	}
	tests := []struct {
		name        string
		edit        func(string) string
		regressions []string // target/scenario
		field       string
		provider    string
		reason      string
	}{
		{"unmodified", func(s string) string { return s }, nil, "", "", "the committed table passes its own gate"},
		{"strict row reads reasoning_content", func(s string) string {
			return strings.Replace(s, "carriers: []\n    providers: [mistral", "carriers: [reasoning_content]\n    providers: [mistral", 1)
		}, // Mistral's own turns carry their thinking inside content chunks, so only
			// the turn holding another provider's reasoning sends the key there.
			// The aliases (a custom id at each host, the provider id through a
			// proxy) are judged against the same cassettes and regress alike.
			[]string{"mistral/strict-schema", "cerebras/carriers", "cerebras/strict-schema", "cerebras/resume", "cerebras/compaction", "cerebras/branch",
				"mistral~1/strict-schema", "mistral~2/strict-schema",
				"cerebras~1/carriers", "cerebras~1/strict-schema", "cerebras~1/resume", "cerebras~1/compaction", "cerebras~1/branch",
				"cerebras~2/carriers", "cerebras~2/strict-schema", "cerebras~2/resume", "cerebras~2/compaction", "cerebras~2/branch"},
			"carriers +reasoning_content", "Extra inputs are not permitted", "a strict provider refuses the key"},
		{"drop the DeepSeek family", func(s string) string {
			return strings.Replace(s, "  - name: deepseek\n    providers: [deepseek]\n    models: [deepseek]\n    hosts: [api.deepseek.com]\n", "", 1)
		}, []string{"deepseek/missing-echo", "deepseek/fallback", "deepseek~1/missing-echo", "deepseek~1/fallback", "deepseek~2/missing-echo", "deepseek~2/fallback"}, `must-echo family "deepseek" -> ""`, "must be passed back to the API",
			"DeepSeek refuses a bare tool turn without the pad, and off the must-echo tier a refusal of reasoning_content is learnt, so the retry goes without the field DeepSeek needs back"},
	}
	for _, tt := range tests {
		headRaw := tt.edit(string(raw))
		if tt.edit != nil && tt.regressions != nil && headRaw == string(raw) {
			t.Fatalf("%s: the edit did not apply", tt.name)
		}
		head, err := matrix.Parse("head.yaml", []byte(headRaw))
		if err != nil {
			t.Fatal(err)
		}
		res, err := gate.Evaluate(context.Background(), keep(base), keep(head), profiles, dir)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range res.Regressions() {
			got = append(got, c.Target+"/"+c.Scenario)
			if !strings.Contains(c.Field, tt.field) {
				t.Errorf("%s: %s/%s field %q, want it to name %q", tt.name, c.Target, c.Scenario, c.Field, tt.field)
			}
		}
		if strings.Join(got, ",") != strings.Join(tt.regressions, ",") {
			t.Errorf("%s: regressions %v, want %v: %s", tt.name, got, tt.regressions, tt.reason)
		}
		if tt.provider != "" {
			found := false
			for _, c := range res.Regressions() {
				found = found || strings.Contains(c.Head.ProviderError, tt.provider)
			}
			if !found {
				t.Errorf("%s: no regression quotes the provider's recorded error %q", tt.name, tt.provider)
			}
		}
	}
}

// TestGateDroppedReasoningIsARegression: a cell that goes from pass to
// advisory is a regression named as the provider reading reasoning the
// route no longer sends (the seed's failure: reasoning discarded, the
// model guessing again), not a mere change.
func TestGateDroppedReasoningIsARegression(t *testing.T) {
	raw, base, profiles, dir := recordCommitted(t, "fireworks")
	// Fireworks reads reasoning_content back; a row that stops sending it
	// is accepted, and the model reasons again from scratch.
	head := editRaw(t, raw, "carriers: [reasoning_content]\n    providers: [fireworks]", "carriers: []\n    providers: [fireworks]")
	only := onlyTarget(t, "fireworks")
	res, err := gate.Evaluate(context.Background(), only(base), only(head), profiles, dir)
	if err != nil {
		t.Fatal(err)
	}
	// No advisories: declaration covers the cell, so it fails as an
	// undeclared advisory, named as reasoning the route no longer sends.
	var dropped []string
	for _, c := range res.Regressions() {
		if c.Base.Status == "pass" && c.Head.Status == "fail" && strings.HasPrefix(c.Head.Detail, scenario.UndeclaredAdvisory) {
			if c.Why != gate.WhyDropped {
				t.Errorf("%s/%s: why %q, want %q", c.Target, c.Scenario, c.Why, gate.WhyDropped)
			}
			dropped = append(dropped, c.Target+"/"+c.Scenario)
		}
	}
	if len(dropped) == 0 {
		t.Fatalf("no pass -> undeclared advisory regression; changes: %+v", res.Changes)
	}
	// Declared, the same cell is advisory: still a regression from pass.
	declared := only(head)
	declared.Advisories = []matrix.KnownFailure{{Target: "fireworks", Scenario: "carriers", Reason: "on purpose", Line: 1}}
	res, err = gate.Evaluate(context.Background(), only(base), declared, profiles, dir)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := regression(res, "fireworks/carriers"); !ok || c.Head.Status != "advisory" || c.Why != gate.WhyDropped {
		t.Errorf("a declared advisory after a pass: %+v (found %v), want a regression to advisory", c, ok)
	}
}

// TestGateAliasSeesWhatTheTargetMisses: dropping api.kimi.com from the
// kimi must-echo family, or groq.com from the strict row, changes nothing
// for the exact targets (their provider ids still match); the aliases that
// reach the same endpoints through a custom provider id regress, judged
// against the targets' own cassettes.
func TestGateAliasSeesWhatTheTargetMisses(t *testing.T) {
	raw, base, profiles, dir := recordCommitted(t, "kimi", "groq")
	only := func(f *matrix.File, aliases bool) *matrix.File {
		out := *f
		out.Targets = nil
		for _, id := range []string{"kimi", "groq"} {
			tg, _ := f.Target(id)
			if !aliases {
				tg.Aliases = nil
			}
			out.Targets = append(out.Targets, tg)
		}
		return &out
	}
	for _, tc := range []struct{ name, from, to, alias string }{
		{"kimi host", "hosts: [api.kimi.com, moonshot.ai, moonshot.cn]\n  - name: deepseek", "hosts: [moonshot.ai, moonshot.cn]\n  - name: deepseek", "kimi~1/missing-echo"},
		{"groq host", "hosts: [mistral.ai, groq.com, cerebras.ai", "hosts: [mistral.ai, cerebras.ai", "groq~1/strict-schema"},
	} {
		edited := strings.Replace(string(raw), tc.from, tc.to, 1)
		if edited == string(raw) {
			t.Fatalf("%s: the edit did not apply", tc.name)
		}
		head, err := matrix.Parse("head.yaml", []byte(edited))
		if err != nil {
			t.Fatal(err)
		}
		exact, err := gate.Evaluate(context.Background(), only(base, false), only(head, false), profiles, dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(exact.Changes) != 0 {
			t.Errorf("%s: the exact targets see %d changes, want none (the alias is what sees it)", tc.name, len(exact.Changes))
		}
		with, err := gate.Evaluate(context.Background(), only(base, true), only(head, true), profiles, dir)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, c := range with.Regressions() {
			found = found || c.Target+"/"+c.Scenario == tc.alias && strings.Contains(c.Field, "alias (custom")
		}
		if !found {
			t.Errorf("%s: no regression of %s; changes %+v", tc.name, tc.alias, with.Changes)
		}
	}
}

// recordCommitted reads the committed route table (raw and parsed), its
// profiles, and records the targets' cassettes into a temporary directory.
func recordCommitted(t *testing.T, targets ...string) (raw []byte, base *matrix.File, profiles map[string]*providers.Profile, dir string) {
	t.Helper()
	raw, err := os.ReadFile("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	base, err = matrix.Parse("matrix.yaml", raw)
	if err != nil {
		t.Fatal(err)
	}
	profiles = scenariotest.Profiles(t, "../providers")
	dir = t.TempDir()
	scenariotest.Record(t, base, profiles, dir, "gate", targets...)
	return raw, base, profiles, dir
}

// TestGateNousPortalMessagesRelay: the Nous Portal's /v1/messages relay
// takes the anthropic-direct route by its host (nousresearch.com). Dropping
// the host (mutate's "drop nousresearch.com from
// anthropic.routes[anthropic-direct].hosts") leaves the Portal an unknown
// relay that gets no thinking, so the in-flight tool loop goes back without
// its signed thinking block and the relay refuses the turn with Anthropic's
// words (providers/nous-anthropic.yaml): the cells regress.
func TestGateNousPortalMessagesRelay(t *testing.T) {
	raw, base, profiles, dir := recordCommitted(t, "nous-anthropic")
	head := editRaw(t, raw, "hosts: [api.anthropic.com, nousresearch.com]", "hosts: [api.anthropic.com]")
	only := onlyTarget(t, "nous-anthropic")
	unchanged, err := gate.Evaluate(context.Background(), only(base), only(base), profiles, dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(unchanged.Regressions()); n != 0 {
		t.Fatalf("the committed table regresses %d nous-anthropic cells against itself", n)
	}
	res, err := gate.Evaluate(context.Background(), only(base), only(head), profiles, dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	refused := false
	for _, c := range res.Regressions() {
		got = append(got, c.Scenario)
		refused = refused || strings.Contains(c.Head.ProviderError, "Expected `thinking` or `redacted_thinking`, but found `tool_use`")
	}
	// Every scenario whose conversation runs a tool loop regresses; the
	// three that do not apply to the target (missing-echo, strict-schema,
	// flags) stay n/a.
	want := []string{"carriers", "fallback", "signed-roundtrip", "resume", "compaction", "branch"}
	if !slices.Equal(got, want) {
		t.Errorf("nous-anthropic regressions %v, want %v", got, want)
	}
	if !refused {
		t.Error("no regression quotes the relay's refusal of a tool turn without its thinking block")
	}
}

// editRaw returns the committed matrix with the first old replaced by new,
// parsed: an edit as a maintainer makes it.
func editRaw(t *testing.T, raw []byte, old, new string) *matrix.File {
	t.Helper()
	edited := strings.Replace(string(raw), old, new, 1)
	if edited == string(raw) {
		t.Fatalf("the edit %q did not apply", old)
	}
	head, err := matrix.Parse("head.yaml", []byte(edited))
	if err != nil {
		t.Fatal(err)
	}
	return head
}

// onlyTarget returns a function that keeps, of a matrix, the one target id.
func onlyTarget(t *testing.T, id string) func(*matrix.File) *matrix.File {
	return func(f *matrix.File) *matrix.File {
		out := *f
		tg, ok := f.Target(id)
		if !ok {
			t.Fatalf("no target %s", id)
		}
		out.Targets = []matrix.Target{tg}
		return &out
	}
}

// committedTarget is one target of the committed table, its cassettes
// recorded into a temporary directory, to judge edits of the table on.
type committedTarget struct {
	t        *testing.T
	raw      []byte
	base     *matrix.File
	profiles map[string]*providers.Profile
	dir      string
	only     func(*matrix.File) *matrix.File
}

func recordTarget(t *testing.T, id string) committedTarget {
	raw, base, profiles, dir := recordCommitted(t, id)
	return committedTarget{t: t, raw: raw, base: base, profiles: profiles, dir: dir, only: onlyTarget(t, id)}
}

// gate judges the committed table edited (the first old replaced by new)
// on the target and its aliases.
func (c committedTarget) gate(old, new string) *gate.Result {
	c.t.Helper()
	res, err := gate.Evaluate(context.Background(), c.only(c.base), c.only(editRaw(c.t, c.raw, old, new)), c.profiles, c.dir)
	if err != nil {
		c.t.Fatal(err)
	}
	return res
}

// regression returns the regression of a cell ("target/scenario"), if any.
func regression(res *gate.Result, cell string) (gate.Change, bool) {
	for _, c := range res.Regressions() {
		if c.Target+"/"+c.Scenario == cell {
			return c, true
		}
	}
	return gate.Change{}, false
}

// TestGateLegacyClaudeRefusesSwitchedInReasoning: a Claude model without
// extended thinking on Bedrock Converse returns no reasoning, so only a
// history another model reasoned in (a model switch) can make its Converse
// row replay any. Bedrock refuses that reasoning, signed or not
// (providers/bedrock-converse-claude-legacy.yaml), so giving the row
// either replay contract but stripped regresses the carriers cell of the
// target and of every alias, in Bedrock's words.
func TestGateLegacyClaudeRefusesSwitchedInReasoning(t *testing.T) {
	target := recordTarget(t, "bedrock-converse-claude-legacy")
	const row = "claude-instant, claude-v2]\n      replay: stripped"
	for _, replay := range []string{"signed", "unsigned"} {
		res := target.gate(row, strings.Replace(row, "stripped", replay, 1))
		var got []string
		for _, c := range res.Regressions() {
			if !strings.Contains(c.Head.ProviderError, "User messages cannot contain reasoning content") {
				t.Errorf("replay %s: %s/%s regressed without Bedrock's refusal: %q", replay, c.Target, c.Scenario, c.Head.ProviderError)
			}
			got = append(got, c.Target+"/"+c.Scenario)
		}
		want := []string{"bedrock-converse-claude-legacy/carriers"}
		for i := 1; i <= 5; i++ {
			want = append(want, fmt.Sprintf("bedrock-converse-claude-legacy~%d/carriers", i))
		}
		if !slices.Equal(got, want) {
			t.Errorf("replay %s: regressions %v, want %v", replay, got, want)
		}
	}
}

// TestGateVercelDeepSeekReadsReasoning: the Vercel AI Gateway passes
// DeepSeek only the reasoning replayed in `reasoning`
// (providers/vercel-ai-gateway-deepseek.yaml). Every edit that leaves a
// route to the gateway without `reasoning` (the gateway's provider id
// dropped, for its id through a proxy; its host dropped, for the OpenAI
// SDK's id at the host; `reasoning` dropped from the row) sends DeepSeek a
// tool-call turn without its reasoning, and the regression quotes
// DeepSeek's refusal.
func TestGateVercelDeepSeekReadsReasoning(t *testing.T) {
	target := recordTarget(t, "vercel-ai-gateway-deepseek")
	for _, tc := range []struct{ edit, old, new, cell string }{
		{"drop ai-gateway from the row's providers", "providers: [openrouter, kilocode, ai-gateway, nous]", "providers: [openrouter, kilocode, nous]", "vercel-ai-gateway-deepseek~2/carriers"},
		{"drop ai-gateway.vercel.sh from the row's hosts", "kilo.ai, ai-gateway.vercel.sh, nousresearch.com]", "kilo.ai, nousresearch.com]", "vercel-ai-gateway-deepseek~1/carriers"},
		{"drop reasoning from the row's carriers", "carriers: [reasoning_content, reasoning, reasoning_details]\n    providers: [openrouter", "carriers: [reasoning_content, reasoning_details]\n    providers: [openrouter", "vercel-ai-gateway-deepseek/carriers"},
	} {
		res := target.gate(tc.old, tc.new)
		if c, ok := regression(res, tc.cell); !ok || !strings.Contains(c.Head.ProviderError, "The `reasoning_content` in the thinking mode must be passed back to the API.") {
			t.Errorf("%s: no regression of %s quoting DeepSeek's refusal; changes %+v", tc.edit, tc.cell, res.Changes)
		}
	}
}

// TestGateOpenRouterDeepSeekPad: OpenRouter passes DeepSeek the replayed
// reasoning_content (providers/openrouter-deepseek.yaml), so the one-space
// pad of a bare tool-call turn reaches DeepSeek through it. Dropping
// reasoning_content from the gateways row takes the pad away (no other
// carrier has one), and the bare turn is refused in DeepSeek's words,
// wrapped by OpenRouter.
func TestGateOpenRouterDeepSeekPad(t *testing.T) {
	res := recordTarget(t, "openrouter-deepseek").gate("carriers: [reasoning_content, reasoning, reasoning_details]\n    providers: [openrouter", "carriers: [reasoning, reasoning_details]\n    providers: [openrouter")
	if c, ok := regression(res, "openrouter-deepseek/missing-echo"); !ok || !strings.Contains(c.Head.ProviderError, `"provider_name":"DeepSeek"`) || !strings.Contains(c.Head.ProviderError, "must be passed back to the API") {
		t.Errorf("no missing-echo regression quoting DeepSeek's refusal through OpenRouter; changes %+v", res.Changes)
	}
}

// TestGateConverseProxyNamesKimiItsOwnWay: LiteLLM's Bedrock pass-through
// takes a model_name of its config in the Converse path, so a route can
// name Kimi without Bedrock's vendor prefix (bedrock-converse-kimi~1).
// Dropping kimi from the unsigned reasoners leaves that route to the
// default (stripped), and the provider, recorded reading the reasoning
// replayed to it, no longer gets it: the compaction cell regresses to
// advisory, the seed's failure.
func TestGateConverseProxyNamesKimiItsOwnWay(t *testing.T) {
	res := recordTarget(t, "bedrock-converse-kimi").gate("models: [nova, minimax, kimi, moonshot]", "models: [nova, minimax, moonshot]")
	var got []string
	for _, c := range res.Regressions() {
		got = append(got, c.Target+"/"+c.Scenario+": "+c.Why)
	}
	if want := []string{"bedrock-converse-kimi~1/compaction: " + gate.WhyDropped}; !slices.Equal(got, want) {
		t.Errorf("regressions %q, want %q", got, want)
	}
}

// TestGateVertexMultiRegion: the Anthropic SDK reaches Claude on Vertex AI
// at the multi-region hosts aiplatform.us.rep.googleapis.com and
// aiplatform.eu.rep.googleapis.com too (vertex-anthropic~2). Without the
// pattern in the vertex route class the route is an unknown relay that
// gets no thinking, and Vertex refuses the tool loop without its signed
// block: the gate names the regression. Without it in the platforms the
// alias would take the Messages API's shape, another request shape than
// its target's, and the loader refuses the table at the alias's line.
func TestGateVertexMultiRegion(t *testing.T) {
	target := recordTarget(t, "vertex-anthropic")
	const patterns = `host_patterns: ["*-aiplatform.googleapis.com", aiplatform.googleapis.com, "aiplatform.*.rep.googleapis.com"]`
	const without = `host_patterns: ["*-aiplatform.googleapis.com", aiplatform.googleapis.com]`
	res := target.gate(patterns+"\n      paths: [/publishers/anthropic]\n    - id: foundry", without+"\n      paths: [/publishers/anthropic]\n    - id: foundry")
	found := false
	for _, c := range res.Regressions() {
		if c.Target != "vertex-anthropic~2" {
			t.Errorf("%s/%s regressed, want only the multi-region alias", c.Target, c.Scenario)
		}
		found = found || c.Scenario == "carriers" && strings.Contains(c.Head.ProviderError, "Expected `thinking` or `redacted_thinking`, but found `tool_use`")
	}
	if !found {
		t.Errorf("no carriers regression of vertex-anthropic~2 quoting Vertex's refusal; changes %+v", res.Changes)
	}
	platform := strings.Replace(string(target.raw), "- platform: vertex\n      "+patterns, "- platform: vertex\n      "+without, 1)
	if platform == string(target.raw) {
		t.Fatal("the platform edit did not apply")
	}
	if _, err := matrix.Parse("head.yaml", []byte(platform)); err == nil || !strings.Contains(err.Error(), "the messages platform serves it, but the target is on vertex") {
		t.Errorf("the platform edit: loader error %v, want the alias refused", err)
	}
}

// TestGateKnownFailurePinnedToItsCause: gemini-openai/strict-schema is a
// known failure for Google refusing reasoning_content. Adding `reasoning`
// to the default row makes Google refuse `reasoning` first (its confirmed
// wording): the cell still fails, but for another cause than the one
// declared, which the gate names as a regression instead of letting the
// declaration excuse it.
func TestGateKnownFailurePinnedToItsCause(t *testing.T) {
	target := recordTarget(t, "gemini-openai")
	res := target.gate("default_carriers: [reasoning_content]", "default_carriers: [reasoning_content, reasoning]")
	c, ok := regression(res, "gemini-openai/strict-schema")
	if !ok || c.Why != gate.WhyOtherCause || c.Base.Status != "known-fail" || !strings.Contains(c.Head.ProviderError, `Unknown name \"reasoning\"`) {
		t.Fatalf("gemini-openai/strict-schema: %+v (found %v); want a known failure regressed to another cause, in Google's words", c, ok)
	}
}
