package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
)

// mutateFixture is a one-target table over the committed groq cassettes:
// one mutant is killed, one noticed, and the strict row's host survives
// (nothing takes a custom provider id at Groq's host).
const mutateFixture = `version: 1
carrier_routes:
  - id: strict
    carriers: []
    providers: [groq]
    hosts: [groq.com]
default_carriers: [reasoning_content]
targets:
  - {id: groq, api_mode: chat, provider: groq, base_url: "https://api.groq.com/openai/v1", model: openai/gpt-oss-120b, profile: groq}
`

func writeFixture(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "matrix.yaml")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestMutateCommand(t *testing.T) {
	path := writeFixture(t, mutateFixture)
	args := func(extra ...string) []string {
		return append([]string{"mutate", "--matrix", path, "--cassettes", repoCassettes, "--providers", repoProviders}, extra...)
	}
	r := runMain(t, "", args()...)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "SURVIVED   "+path+":6: drop groq.com from carrier_routes[strict].hosts") {
		t.Errorf("the survivor is not listed with its line and edit:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "route: chat (custom, https://api.groq.com/openai/v1, openai/gpt-oss-120b)") {
		t.Errorf("the survivor does not name the route it changes unseen:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "coverage 2/2 entries reached") {
		t.Errorf("the groq target reaches both entries of the strict row:\n%s", r.stdout)
	}
	// Off a terminal, progress goes to stderr one line per tenth.
	if !strings.HasPrefix(r.stderr, "mutate: ") || !strings.HasSuffix(r.stderr, " mutants)\n") || !strings.Contains(r.stderr, "mutate: 100% (") {
		t.Errorf("no progress on stderr:\n%s", r.stderr)
	}
	// The score is under 100%: --min-score 100 fails with exit 1.
	r = runMain(t, "", args("--min-score", "100")...)
	if r.code != 1 || !strings.Contains(r.stderr, "is under --min-score 100") {
		t.Errorf("--min-score 100: exit %d, stderr %q; want 1 naming the threshold", r.code, r.stderr)
	}
	r = runMain(t, "", args("--format", "json")...)
	var doc struct {
		Score   float64
		Seen    int
		Total   int
		Mutants []struct{ Edit, Outcome string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || r.code != 0 {
		t.Fatalf("json: exit %d, %v\n%s", r.code, err, r.stdout)
	}
	outcomes := map[string]string{}
	for _, m := range doc.Mutants {
		outcomes[m.Edit] = m.Outcome
	}
	if outcomes["add reasoning_content to carrier_routes[strict].carriers"] != "killed" || outcomes["add reasoning to carrier_routes[strict].carriers"] != "noticed" {
		t.Errorf("json outcomes %v", outcomes)
	}
	r = runMain(t, "", args("--format", "markdown")...)
	if !strings.HasPrefix(r.stdout, "## replaycheck mutate") || !strings.Contains(r.stdout, "| drop-entry |") {
		t.Errorf("markdown:\n%s", r.stdout)
	}
	for _, bad := range [][]string{{"--format", "yaml"}, {"--min-score", "120"}} {
		if r := runMain(t, "", args(bad...)...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage)", bad, r.code)
		}
	}
}

// TestMutateStaleSurvivor: a survivor declaration whose mutant the gate
// sees is stale: mutate names it with its line and exits 1, whatever the
// score; the declared survivor is listed with its recording.
func TestMutateStaleSurvivor(t *testing.T) {
	path := writeFixture(t, mutateFixture+`survivors:
  - {edit: "drop groq.com from carrier_routes[strict].hosts", needs: "a recording of Groq under a custom provider id"}
  - {edit: "add reasoning_content to carrier_routes[strict].carriers", needs: "nothing: the gate kills it"}
`)
	r := runMain(t, "", "mutate", "--matrix", path, "--cassettes", repoCassettes, "--providers", repoProviders)
	if r.code != 1 || !strings.Contains(r.stderr, "1 stale survivor declarations") {
		t.Errorf("exit %d, stderr %q; want 1 naming the stale declaration", r.code, r.stderr)
	}
	for _, want := range []string{
		"needs (" + path + ":11): a recording of Groq under a custom provider id",
		"STALE      " + path + ":12: survivors: add reasoning_content to carrier_routes[strict].carriers: the mutant is killed, not a survivor: remove the declaration",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
}

// TestLintCoverage: an entry no target or alias reaches is a finding at
// its line; declaring it unreachable clears it; a declared entry that a
// target reaches is a stale declaration.
func TestLintCoverage(t *testing.T) {
	base := strings.Replace(mutateFixture, "hosts: [groq.com]", "hosts: [groq.com, mistral.ai]", 1)
	for _, tc := range []struct {
		name, extra string
		want        []string
	}{
		{"unreached", "", []string{":6: carrier_routes[strict].hosts: mistral.ai: no target or alias reaches this entry"}},
		{"declared", "unreachable:\n  - {entry: \"carrier_routes[strict].hosts\", value: mistral.ai, reason: no Mistral target here}\n", nil},
		{"stale", "unreachable:\n  - {entry: \"carrier_routes[strict].hosts\", value: mistral.ai, reason: r}\n  - {entry: \"carrier_routes[strict].hosts\", value: groq.com, reason: r}\n",
			[]string{":12: carrier_routes[strict].hosts: groq.com is declared unreachable, but groq reaches it: remove the declaration"}},
	} {
		path := writeFixture(t, base+tc.extra)
		mf, err := matrix.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		got := coverageFindings(mf)
		ok := len(got) == len(tc.want)
		for i := 0; ok && i < len(got); i++ {
			ok = strings.HasPrefix(got[i], path+tc.want[i])
		}
		if !ok {
			t.Errorf("%s: findings %q, want %q (after %s)", tc.name, got, tc.want, path)
		}
	}
}

// TestLintServed: a target or alias whose host does not serve its model by
// a profile's serves declaration is a finding at its line; without the
// declaration it is none.
func TestLintServed(t *testing.T) {
	const src = `version: 1
default_carriers: [reasoning_content]
targets:
  - {id: gemini-openai, api_mode: chat, provider: gemini, base_url: "https://generativelanguage.googleapis.com/v1beta/openai", model: gemini-3-pro-preview, profile: gemini-openai,
     aliases: [{provider: custom, base_url: "https://generativelanguage.googleapis.com/v1beta/openai", model: deepseek-v4-flash, note: n}]}
`
	path := writeFixture(t, src)
	mf, err := matrix.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	profiles, err := providers.LoadDir(repoProviders)
	if err != nil {
		t.Fatal(err)
	}
	by := providers.ByName(profiles)
	got := servedFindings(mf, by)
	want := path + ":5: gemini-openai~1 chat (custom, https://generativelanguage.googleapis.com/v1beta/openai, deepseek-v4-flash): its host does not serve its model: generativelanguage.googleapis.com serves only model ids containing gemini"
	if len(got) != 1 || !strings.HasPrefix(got[0], want) {
		t.Errorf("findings %q, want one starting %q", got, want)
	}
	for _, p := range by {
		p.Serves = nil
	}
	if got := servedFindings(mf, by); len(got) != 0 {
		t.Errorf("without declarations: findings %q, want none", got)
	}
}

// TestLintUnpinnedKnownFailure: a known failure without its cause would
// excuse a failure for any cause: lint names it at its line; with a cause
// it is no finding. A table written before causes still loads (a gate's
// base), so lint, not the loader, asks for it.
func TestLintUnpinnedKnownFailure(t *testing.T) {
	unpinned := writeFixture(t, mutateFixture+"known_failures:\n  - {target: groq, scenario: fallback, reason: r}\n")
	mf, err := matrix.Load(unpinned)
	if err != nil {
		t.Fatalf("a known failure without a cause must load: %v", err)
	}
	if got := unpinnedFindings(mf); len(got) != 1 || !strings.HasPrefix(got[0], unpinned+":") || !strings.Contains(got[0], "known failure groq/fallback has no cause") {
		t.Errorf("findings %q", got)
	}
	pinned := writeFixture(t, mutateFixture+"known_failures:\n  - {target: groq, scenario: fallback, cause: \"Unknown name\", reason: r}\n")
	if mf, err = matrix.Load(pinned); err != nil {
		t.Fatal(err)
	}
	if got := unpinnedFindings(mf); len(got) != 0 {
		t.Errorf("a pinned known failure is a finding: %q", got)
	}
}
