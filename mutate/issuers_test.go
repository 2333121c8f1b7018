package mutate_test

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/mutate"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// issuersFixture is the committed Responses families around the committed
// deepseek-responses and openrouter-responses cassettes.
const issuersFixture = `version: 1
default_carriers: [reasoning_content]
responses:
  families:
    - {id: openai, per_host: true, hosts: [api.openai.com]}
    - {id: azure-openai, per_host: true, host_patterns: ["*.openai.azure.com"]}
    - {id: deepseek, hosts: [api.deepseek.com]}
    - {id: openrouter, hosts: [openrouter.ai]}
targets:
  - {id: deepseek-responses, api_mode: responses, provider: deepseek, base_url: "https://api.deepseek.com", model: deepseek-v4-flash, profile: deepseek-responses}
  - {id: openrouter-responses, api_mode: responses, provider: openrouter, base_url: "https://openrouter.ai/api/v1", model: anthropic/claude-sonnet-4.5, profile: openrouter-responses}
`

// withServes copies the profiles with the named profile's serves
// declaration changed by edit.
func withServes(in map[string]*providers.Profile, name string, edit func(*providers.Serves)) map[string]*providers.Profile {
	out := map[string]*providers.Profile{}
	for n, p := range in {
		out[n] = p
	}
	c := *in[name]
	s := *c.Serves
	edit(&s)
	c.Serves = &s
	out[name] = &c
	return out
}

// withServedHosts copies the profiles with serves.hosts of the named
// profile replaced by hosts (nil drops it).
func withServedHosts(in map[string]*providers.Profile, name string, hosts []string) map[string]*providers.Profile {
	return withServes(in, name, func(s *providers.Serves) { s.Hosts = hosts })
}

var deepseekFamilyMutants = []string{
	"drop responses.families[deepseek]",
	"set responses.families[deepseek].per_host to true",
	"merge responses.families[deepseek] into responses.families[azure-openai]",
}

// TestIssuersComparesServedHostnames: DeepSeek serves its Responses API at
// api.deepseek.com only (deepseek-responses' serves.hosts), so a family of
// that one host shares items with no other served hostname, as a per-host
// family or no family does: dropping it, making it per host or merging it
// into a per-host family changes only what a subdomain of api.deepseek.com
// would share, and a route there reaches nothing. The mutants are
// equivalent, for the declaration's fact. Without serves.hosts every
// subdomain may serve the API and the three survive on the target.
func TestIssuersComparesServedHostnames(t *testing.T) {
	profiles := scenariotest.Profiles(t, "../providers")
	rep := runWith(t, issuersFixture, profiles)
	open := runWith(t, issuersFixture, withServedHosts(profiles, "deepseek-responses", nil))
	for _, edit := range deepseekFamilyMutants {
		m := find(t, rep, edit)
		if m.Outcome != mutate.Equivalent || !strings.Contains(m.Route, "api.api.deepseek.com") ||
			!strings.Contains(m.Why, "api.api.deepseek.com is no host the API is served at: only api.deepseek.com (providers/deepseek-responses.yaml serves: ") ||
			!strings.Contains(m.Why, "https://api-docs.deepseek.com/guides/responses_api") {
			t.Errorf("%s: %s on %q (%s), want equivalent, pruned at a subdomain of api.deepseek.com by deepseek-responses' serves.hosts", edit, m.Outcome, m.Route, m.Why)
		}
		if m := find(t, open, edit); m.Outcome != mutate.Survived || m.Route != "deepseek-responses" {
			t.Errorf("%s without serves.hosts: %s on %q (%s), want a survivor on deepseek-responses", edit, m.Outcome, m.Route, m.Change)
		}
	}
}

// TestIssuersOpenRouterRegions: OpenRouter serves its API at openrouter.ai
// and at two in-region hosts, so its family shares items issued at
// openrouter.ai with eu.openrouter.ai and us.openrouter.ai: dropping the
// family or making it per host is a real decision, and survives (no
// target replays an item across regions). Were openrouter.ai its only
// served host, the two would be equivalent like DeepSeek's.
func TestIssuersOpenRouterRegions(t *testing.T) {
	profiles := scenariotest.Profiles(t, "../providers")
	rep := runWith(t, issuersFixture, profiles)
	alone := runWith(t, issuersFixture, withServedHosts(profiles, "openrouter-responses", []string{"openrouter.ai"}))
	for _, edit := range []string{"drop responses.families[openrouter]", "set responses.families[openrouter].per_host to true"} {
		m := find(t, rep, edit)
		if want := "responses-issuers family:eu.openrouter.ai,openrouter.ai,us.openrouter.ai -> host:openrouter.ai"; m.Outcome != mutate.Survived || m.Route != "openrouter-responses" || m.Change != want {
			t.Errorf("%s: %s on %q (%s), want a survivor on openrouter-responses: %s", edit, m.Outcome, m.Route, m.Change, want)
		}
		if m := find(t, alone, edit); m.Outcome != mutate.Equivalent || !strings.Contains(m.Why, "is no host the API is served at: only openrouter.ai") {
			t.Errorf("%s with openrouter.ai the only served host: %s (%s), want equivalent", edit, m.Outcome, m.Why)
		}
	}
}
