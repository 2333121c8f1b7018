package gate_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/gate"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// TestGateJudgesAddedTargets: a pull request that adds a target (or an
// alias) is judged on the cells only the head has. A DeepSeek model behind
// a relay whose host and provider id no must-echo family names fails its
// missing-echo cell in DeepSeek's words; the gate must name that as a
// regression of an added cell, not "0 cells changed".
func TestGateJudgesAddedTargets(t *testing.T) {
	raw, committed, profiles, dir := recordCommitted(t, "deepseek")
	only := onlyTarget(t, "deepseek")
	base := only(committed)
	relay := matrix.Target{ID: "deepseek-relay", Profile: "deepseek", Line: 900,
		Route: engine.Route{APIMode: engine.ModeChat, Provider: "custom", BaseURL: "https://relay.example.net/v1", Model: "team-model"}}
	head := withTarget(t, base, relay, profiles, dir)
	res, err := gate.Evaluate(context.Background(), base, head, profiles, dir)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := regression(res, "deepseek-relay/missing-echo")
	if !ok {
		t.Fatalf("the added target's failing missing-echo cell is no regression; changes: %+v", res.Changes)
	}
	if !c.New || c.Why != gate.WhyNewFails || c.Line != 900 || !strings.Contains(c.Head.ProviderError, "must be passed back to the API") {
		t.Errorf("added regression %+v: want it new, on the target's line, named as an added cell that fails, in DeepSeek's words", c)
	}
	added := 0
	for _, c := range res.Changes {
		if c.Kind == gate.Added {
			added++
			if c.Head.Status == report.StatusNA || !c.New {
				t.Errorf("added change %s/%s is %s (new %v): n/a cells are left out, added cells are new", c.Target, c.Scenario, c.Head.Status, c.New)
			}
		}
	}
	if added == 0 {
		t.Error("the added target's passing cells are not listed as added")
	}
	if res.Passed() {
		t.Error("a gate with an added failing cell passes")
	}

	// An alias the base's target does not have is judged the same way.
	withAlias := only(editRaw(t, raw, `aliases: [{provider: llm-proxy, base_url: "https://llm-proxy.example.com/deepseek/v1"`,
		`aliases: [{provider: custom, base_url: "https://relay.example.net/v1", model: team-model, note: a relay no family names},
               {provider: llm-proxy, base_url: "https://llm-proxy.example.com/deepseek/v1"`))
	res, err = gate.Evaluate(context.Background(), base, withAlias, profiles, dir)
	if err != nil {
		t.Fatal(err)
	}
	c, ok = regression(res, "deepseek~1/missing-echo")
	if !ok || !c.New || !strings.Contains(c.Field, "new alias (custom, https://relay.example.net/v1, team-model)") {
		t.Errorf("the added alias's failing missing-echo cell: %+v (found %v); changes %+v", c, ok, res.Changes)
	}
	if len(res.Removed) != 0 {
		t.Errorf("aliases are matched by route, not by position: removed %v", res.Removed)
	}

	// Removing the target is named.
	none := *base
	none.Targets = nil
	res, err = gate.Evaluate(context.Background(), base, &none, profiles, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(res.Removed, "target deepseek") {
		t.Errorf("removed %v, want the target named", res.Removed)
	}
}

// TestGateRefusesMissingCassettes: a gate with no cassettes would find
// every cell unverified in both tables, so no change: it must refuse,
// naming the directory and what it needs, for a missing directory, an
// empty one, and one without a target's cassettes.
func TestGateRefusesMissingCassettes(t *testing.T) {
	_, committed, profiles, dir := recordCommitted(t, "deepseek")
	only := onlyTarget(t, "deepseek")
	empty := t.TempDir()
	notDir := empty + "/file"
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ dir, want string }{
		{empty + "/nope", "no such directory"},
		{notDir, "not a directory"},
		{empty, "no cassette for target deepseek"},
	} {
		_, err := gate.Evaluate(context.Background(), only(committed), only(committed), profiles, tt.dir)
		if err == nil || !strings.Contains(err.Error(), tt.dir) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "replaycheck record") {
			t.Errorf("cassettes %s: error %v, want it to name the directory, say %q and how to record", tt.dir, err, tt.want)
		}
	}
	if _, err := gate.Evaluate(context.Background(), only(committed), only(committed), profiles, dir); err != nil {
		t.Errorf("with the target's cassettes: %v", err)
	}
}

// TestGateNamesCellsNotJudged: a cassette the gate cannot read, or a cell
// whose cassette is missing, is named with its file, never "no
// regression".
func TestGateNamesCellsNotJudged(t *testing.T) {
	_, committed, profiles, dir := recordCommitted(t, "deepseek")
	only := onlyTarget(t, "deepseek")
	broken := dir + "/deepseek/carriers.yaml"
	if err := os.WriteFile(broken, []byte("version: 2\ninteractions:\n  - {request: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(dir + "/deepseek/resume.yaml"); err != nil {
		t.Fatal(err)
	}
	res, err := gate.Evaluate(context.Background(), only(committed), only(committed), profiles, dir)
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, n := range res.NotJudged() {
		named = append(named, n.Side+" "+n.Cell.Target+"/"+n.Cell.Scenario+" "+string(n.Cell.Status))
	}
	for _, want := range []string{"head deepseek/carriers error", "base deepseek/carriers error", "head deepseek/resume unverified"} {
		if !slices.Contains(named, want) {
			t.Errorf("not judged %v, want %q", named, want)
		}
	}
	if res.Passed() || res.Errors() != 6 { // the target and its two aliases, in both runs
		t.Errorf("errors %d, passed %v: a gate that could not judge a cell never passes", res.Errors(), res.Passed())
	}
	var text strings.Builder
	if err := gate.WriteText(&text, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "NOT JUDGED  head deepseek/carriers: error") || !strings.Contains(text.String(), "carriers.yaml") {
		t.Errorf("the text form does not name the cell and its file:\n%s", text.String())
	}
	if testing.Verbose() {
		t.Log(text.String())
	}
}

// TestGateAddedUndeclaredAdvisory: a target the head adds whose route
// sends less reasoning than its provider reads fails as an undeclared
// advisory, named as such; declared under advisories:, it is added.
func TestGateAddedUndeclaredAdvisory(t *testing.T) {
	_, committed, profiles, dir := recordCommitted(t, "cerebras")
	base := onlyTarget(t, "cerebras")(committed)
	relay := matrix.Target{ID: "cerebras-eu", Profile: "cerebras", Line: 901,
		Route: engine.Route{APIMode: engine.ModeChat, Provider: "cerebras", BaseURL: "https://eu.api.cerebras.ai/v1", Model: "gpt-oss-120b"}}
	head := withTarget(t, base, relay, profiles, dir)
	res, err := gate.Evaluate(context.Background(), base, head, profiles, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range []string{"carriers", "compaction"} {
		if c, ok := regression(res, "cerebras-eu/"+sc); !ok || c.Why != gate.WhyNewDrops {
			t.Fatalf("the added target's undeclared advisory: %+v (found %v); changes %+v", c, ok, res.Changes)
		}
	}
	head.Advisories = append(slices.Clone(head.Advisories),
		matrix.KnownFailure{Target: relay.ID, Scenario: "carriers", Reason: "the strict row, as cerebras", Line: 902},
		matrix.KnownFailure{Target: relay.ID, Scenario: "compaction", Reason: "the strict row, as cerebras", Line: 903})
	if res, err = gate.Evaluate(context.Background(), base, head, profiles, dir); err != nil {
		t.Fatal(err)
	}
	if !res.Passed() {
		t.Errorf("declared, the added advisory still regresses: %+v", res.Changes)
	}
}

// withTarget returns base with target added, its cassettes recorded into
// dir from its profile's simulator: a pull request that adds a target.
func withTarget(t *testing.T, base *matrix.File, target matrix.Target, profiles map[string]*providers.Profile, dir string) *matrix.File {
	t.Helper()
	head := *base
	head.Targets = append(slices.Clone(base.Targets), target)
	scenariotest.Record(t, &head, profiles, dir, "gate", target.ID)
	return &head
}
