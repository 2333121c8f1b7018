package mutate_test

import (
	"context"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/mutate"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// servedFixture is a route table around the committed gemini-openai
// cassettes: Gemini's native fields go to a gemini model, or to the gemini
// provider id or Google's host. The alias reaches Google's host under a
// custom provider id. ENTRY names one more model id the table lists, so
// that a probe at Google's host carries it.
const servedFixture = `version: 1
native_fields:
  - {field: gemini, models: [gemini]}
  - {field: gemini, providers: [gemini], hosts: [generativelanguage.googleapis.com]}
echo_families:
  - {name: other, models: [ENTRY]}
default_carriers: [reasoning_content]
targets:
  - {id: gemini-openai, api_mode: chat, provider: gemini, base_url: "https://generativelanguage.googleapis.com/v1beta/openai", model: gemini-3-pro-preview, profile: gemini-openai,
     aliases: [{provider: custom, base_url: "https://generativelanguage.googleapis.com/v1beta/openai", model: gemini-3-pro-preview, note: a custom provider id at the provider's own host}]}
`

const dropGoogleHost = "drop generativelanguage.googleapis.com from native_fields[1].hosts"

func runWith(t *testing.T, src string, profiles map[string]*providers.Profile) *mutate.Report {
	t.Helper()
	base, err := matrix.Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := mutate.Run(context.Background(), base, []byte(src), mutate.Options{Profiles: profiles, CassetteDir: "../cassettes"})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// withoutServes copies the profiles with every serves declaration removed.
func withoutServes(in map[string]*providers.Profile) map[string]*providers.Profile {
	out := map[string]*providers.Profile{}
	for name, p := range in {
		c := *p
		c.Serves = nil
		out[name] = &c
	}
	return out
}

// TestServedPrunesOnlyUnservedProbes: dropping Google's host from the
// native-fields row changes the decision only of routes to Google's host
// under another provider id and a model id without gemini. When the only
// such model ids the table names are ones Google's API does not serve (per
// gemini-openai's serves declaration), the mutant is equivalent and names
// a pruned route and the declaration; when the table names one it serves
// (gemma), a custom provider id at Google's host with that model is a real
// route, and the mutant survives on it. Without the declaration nothing is
// pruned.
func TestServedPrunesOnlyUnservedProbes(t *testing.T) {
	profiles := scenariotest.Profiles(t, "../providers")
	for _, tc := range []struct {
		reason, entry string
		profiles      map[string]*providers.Profile
		outcome       mutate.Outcome
		route, why    string
	}{
		{"Google's API serves no deepseek model", "deepseek", profiles, mutate.Equivalent,
			"(custom, https://generativelanguage.googleapis.com/v1beta/openai, unlisted-model)",
			"no model answers any of them at its host: for chat (custom, https://generativelanguage.googleapis.com/v1beta/openai, unlisted-model), generativelanguage.googleapis.com serves only model ids containing gemini or gemma"},
		{"Google's API serves gemma", "gemma", profiles, mutate.Survived,
			"chat (custom, https://generativelanguage.googleapis.com/v1beta/openai, gemma)", "no target or alias takes this route"},
		{"a profile that declares nothing prunes nothing", "deepseek", withoutServes(profiles), mutate.Survived,
			"chat (custom, https://generativelanguage.googleapis.com/v1beta/openai, unlisted-model)", "no target or alias takes this route"},
	} {
		rep := runWith(t, strings.Replace(servedFixture, "ENTRY", tc.entry, 1), tc.profiles)
		m := find(t, rep, dropGoogleHost)
		if m.Outcome != tc.outcome || !strings.HasSuffix(m.Route, tc.route) || !strings.Contains(m.Why, tc.why) {
			t.Errorf("%s: %s, route %q, why %q; want %s, route %q, why containing %q", tc.reason, m.Outcome, m.Route, m.Why, tc.outcome, tc.route, tc.why)
		}
		if tc.outcome == mutate.Equivalent && !strings.Contains(m.Why, "providers/gemini-openai.yaml serves: https://ai.google.dev/gemini-api/docs/models") {
			t.Errorf("%s: the reason %q does not cite the declaration's profile and source", tc.reason, m.Why)
		}
	}
}

// TestServedNeverPrunesATarget: an alias whose model its host does not
// serve by a declaration is still judged (its cells are replayed), never
// pruned, and Unserved names it with its line for lint.
func TestServedNeverPrunesATarget(t *testing.T) {
	profiles := scenariotest.Profiles(t, "../providers")
	src := strings.Replace(strings.Replace(servedFixture, "ENTRY", "deepseek", 1), "model: gemini-3-pro-preview, note: a custom", "model: deepseek-v4-flash, note: a custom", 1)
	rep := runWith(t, src, profiles)
	m := find(t, rep, dropGoogleHost)
	if m.Outcome == mutate.Equivalent || m.Route != "gemini-openai~1" {
		t.Errorf("%s: %s on %q (%s), want the alias gemini-openai~1 judged by its cells", dropGoogleHost, m.Outcome, m.Route, m.Why)
	}
	base, err := matrix.Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := mutate.Unserved(base, profiles)
	if len(got) != 1 || got[0].Name != "gemini-openai~1" || got[0].Line != 10 || !strings.Contains(got[0].Why, "generativelanguage.googleapis.com serves only model ids containing gemini") {
		t.Errorf("Unserved: %+v, want gemini-openai~1 at line 10 with the declaration's fact", got)
	}
	if got := mutate.Unserved(base, withoutServes(profiles)); len(got) != 0 {
		t.Errorf("Unserved without declarations: %+v, want none", got)
	}
}

// TestCommittedTargetsAreServed: every target and alias of the committed
// table asks its host for a model the profiles say it serves.
func TestCommittedTargetsAreServed(t *testing.T) {
	base, err := matrix.Parse("matrix.yaml", []byte(readMatrix(t)))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range mutate.Unserved(base, scenariotest.Profiles(t, "../providers")) {
		t.Errorf("matrix.yaml:%d: %s %s: %s", u.Line, u.Name, u.Route, u.Why)
	}
}

// mimoFixture is the committed MiMo must-echo family around the committed
// mimo cassettes.
const mimoFixture = `version: 1
echo_families:
  - {name: mimo, providers: [xiaomi], models: [mimo], hosts: [api.xiaomimimo.com, xiaomimimo.com]}
default_carriers: [reasoning_content]
targets:
  - {id: mimo, api_mode: chat, provider: xiaomi, base_url: "https://api.xiaomimimo.com/v1", model: mimo-v2.5-pro, profile: mimo}
`

// TestServedMiMoDomain: the family's bare domain xiaomimimo.com decides
// only for a route at one of its subdomains with neither the xiaomi
// provider id nor a model naming mimo, and MiMo serves only mimo models,
// at its pay-as-you-go host and Token Plan clusters only (mimo's serves):
// dropping the domain is equivalent. Without the declaration it survives.
func TestServedMiMoDomain(t *testing.T) {
	const edit = "drop xiaomimimo.com from echo_families[mimo].hosts"
	profiles := scenariotest.Profiles(t, "../providers")
	if m := find(t, runWith(t, mimoFixture, profiles), edit); m.Outcome != mutate.Equivalent || !strings.Contains(m.Why, "(providers/mimo.yaml serves: ") {
		t.Errorf("%s: %s on %q (%s), want equivalent by mimo's serves", edit, m.Outcome, m.Route, m.Why)
	}
	undeclared := *profiles["mimo"]
	undeclared.Serves = nil
	open := map[string]*providers.Profile{}
	for n, p := range profiles {
		open[n] = p
	}
	open["mimo"] = &undeclared
	if m := find(t, runWith(t, mimoFixture, open), edit); m.Outcome != mutate.Survived || !strings.Contains(m.Route, "xiaomimimo.com") {
		t.Errorf("%s without mimo's serves: %s on %q, want a survivor at a MiMo host", edit, m.Outcome, m.Route)
	}
}
