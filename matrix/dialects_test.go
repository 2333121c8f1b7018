package matrix_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
)

func TestCommittedDialectPolicies(t *testing.T) {
	f, err := matrix.Load("../matrix.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a := f.Table.Dialects.Anthropic
	var ids []string
	for _, r := range a.Routes {
		ids = append(ids, r.ID+":"+string(r.Replay))
	}
	if got := strings.Join(ids, " "); got != "kimi:unsigned deepseek:unsigned anthropic-direct:signed deepseek-model:unsigned bedrock:signed vertex:signed foundry:signed minimax:signed" {
		t.Errorf("anthropic routes %s", got)
	}
	if len(a.Platforms) != 2 || len(a.PriorThinking.Families) != 5 || a.PriorThinking.DefaultKeepsFrom != (engine.ModelVersion{Major: 5}) {
		t.Errorf("platforms %d, families %d, default %v", len(a.Platforms), len(a.PriorThinking.Families), a.PriorThinking.DefaultKeepsFrom)
	}
	if v := a.PriorThinking.Families[1].KeepsFrom; v == nil || *v != (engine.ModelVersion{Major: 4, Minor: 6}) {
		t.Errorf("sonnet keeps from %v", v)
	}
	c := f.Table.Dialects.Converse
	if p := c.For("us.anthropic.claude-opus-4-6-v1:0"); p.ID != "claude" || p.Replay != engine.ReplaySigned || !p.RequestThinking {
		t.Errorf("claude policy %+v", p)
	}
	if c.DefaultReplay != engine.ReplayStripped {
		t.Errorf("default replay %q", c.DefaultReplay)
	}
	rs := f.Table.Dialects.Responses
	var fams []string
	for _, fam := range rs.Families {
		fams = append(fams, fmt.Sprintf("%s:%v", fam.ID, fam.PerHost))
	}
	if got := strings.Join(fams, " "); got != "openai:true azure-openai:true deepseek:false openrouter:false" {
		t.Errorf("responses families %s", got)
	}
	for _, tc := range []struct{ host, family, reason string }{
		{"api.openai.com", "openai/api.openai.com", "OpenAI's own host, an issuer of its own"},
		{"eu.api.openai.com", "openai/eu.api.openai.com", "a data-residency region seals items of its own (dust-tt/dust#18119)"},
		{"api.deepseek.com", "deepseek", "DeepSeek's own host"},
		{"beta.api.deepseek.com", "deepseek", "a subdomain of a family host is in the family"},
		{"demo.openai.azure.com", "azure-openai/demo.openai.azure.com", "each Azure resource is an issuer of its own"},
		{"openai.azure.com.evil.example", "host:openai.azure.com.evil.example", "a look-alike host is a family of its own"},
		{"api.example.com", "host:api.example.com", "an unlisted host is a family of its own"},
	} {
		if got := rs.Family(tc.host); got != tc.family {
			t.Errorf("%s: family of %s = %q, want %q", tc.reason, tc.host, got, tc.family)
		}
	}
	// Every native target resolves to a route that is not an unknown relay,
	// unless its carriers cell is a declared known failure: the target is
	// there to show the relay decision wrong (vercel-ai-gateway-anthropic).
	for _, tg := range f.Targets {
		if tg.Route.APIMode == engine.ModeAnthropic {
			if rp := a.Decide(tg.Route.BaseURL, tg.Route.Model); rp.Route == "" {
				if _, declared := f.KnownFailure(tg.ID, "carriers"); !declared {
					t.Errorf("target %s (matrix.yaml:%d) is an unknown relay with no declared failure", tg.ID, tg.Line)
				}
			}
		}
	}
}

func TestDialectPolicyErrors(t *testing.T) {
	const head = "version: 1\ndefault_carriers: [reasoning_content]\n"
	prior := "  prior_thinking:\n    families: [{name: opus, keeps_from: \"4.5\"}]\n    default_keeps_from: \"5.0\"\n"
	tests := []struct {
		name, doc, want, reason string
	}{
		{"unknown-key", "anthropic:\n  routez: []\n", "m.yaml:4: anthropic: unknown key \"routez\"", "a misspelt key is named with its line"},
		{"bad-replay", "anthropic:\n  routes:\n    - {id: a, replay: signd, prior_thinking: always, hosts: [a.com]}\n" + prior, "m.yaml:5: anthropic route a: unknown replay \"signd\"", "replay is one of three"},
		{"missing-prior", "anthropic:\n  routes:\n    - {id: a, replay: signed, hosts: [a.com]}\n" + prior, "m.yaml:5: anthropic route a: missing prior_thinking", "a replaying route says when earlier thinking goes"},
		{"learn-unsigned", "anthropic:\n  routes:\n    - {id: a, replay: unsigned, prior_thinking: always, learn_rejections: true, hosts: [a.com]}\n" + prior, "learn_rejections needs replay: signed", "only signed routes send signatures"},
		{"bad-pattern", "anthropic:\n  routes:\n    - {id: a, replay: signed, prior_thinking: always, host_patterns: [\"bedrock.*\"]}\n" + prior, "m.yaml:5: anthropic route a host_patterns: bad pattern \"bedrock.*\"", "a wildcard in the last two labels matches any domain"},
		{"bad-path", "anthropic:\n  routes:\n    - {id: a, replay: signed, prior_thinking: always, hosts: [a.com], paths: [anthropic]}\n" + prior, "paths: bad path \"anthropic\"", "paths start with a slash"},
		{"empty-match", "anthropic:\n  routes:\n    - {id: a, replay: signed, prior_thinking: always}\n" + prior, "m.yaml:5: anthropic route a: empty match", "a route must match something"},
		{"duplicate", "anthropic:\n  routes:\n    - {id: a, replay: stripped, hosts: [a.com]}\n    - {id: a, replay: stripped, hosts: [b.com]}\n" + prior, "m.yaml:6: anthropic route: duplicate id \"a\"", "ids are unique"},
		{"no-table", "anthropic:\n  routes:\n    - {id: a, replay: stripped, hosts: [a.com]}\n", "anthropic: missing prior_thinking", "routes need the capability table"},
		{"bad-version", "anthropic:\n  prior_thinking:\n    families: [{name: opus, keeps_from: \"four\"}]\n    default_keeps_from: \"5\"\n", "m.yaml:5: prior_thinking family opus keeps_from: bad version \"four\"", "versions are numbers"},
		{"adaptive-version", "anthropic:\n" + prior + "  adaptive_thinking:\n    families: [{name: opus, from: \"4.seven\"}]\n", "m.yaml:8: adaptive_thinking family opus from: bad version \"4.seven\"", "adaptive versions are numbers"},
		{"adaptive-duplicate", "anthropic:\n" + prior + "  adaptive_thinking:\n    families: [{name: opus}, {name: opus, from: \"4.7\"}]\n", "m.yaml:8: adaptive_thinking family: duplicate name \"opus\"", "adaptive families are unique"},
		{"adaptive-key", "anthropic:\n" + prior + "  adaptive_thinking:\n    families: [{name: opus, keeps_from: \"4.7\"}]\n", "m.yaml:8: adaptive_thinking family: unknown key \"keeps_from\"", "the adaptive threshold is from, not keeps_from"},
		{"adaptive-name", "anthropic:\n" + prior + "  adaptive_thinking:\n    families: [{name: Opus}]\n", "name \"Opus\" must be lower-case letters", "family names are lower-case"},
		{"bad-platform", "anthropic:\n  platforms:\n    - {platform: azure, hosts: [a.com]}\n" + prior, "unknown platform \"azure\"", "platforms are bedrock or vertex"},
		{"converse-replay", "bedrock_converse:\n  models:\n    - {id: c, models: [claude], replay: sometimes}\n", "m.yaml:5: bedrock_converse model c: unknown replay \"sometimes\"", "the converse replay is one of three"},
		{"converse-empty", "bedrock_converse:\n  models:\n    - {id: c, replay: signed}\n", "m.yaml:5: bedrock_converse model c: empty match", "a row matches models"},
		{"converse-default-id", "bedrock_converse:\n  models:\n    - {id: default, models: [x], replay: signed}\n", "must be kebab-case and not \"default\"", "default is the fallback's name"},
		{"converse-upper", "bedrock_converse:\n  models:\n    - {id: c, models: [Claude], replay: signed}\n", "must be lower-case", "model substrings are lower-case"},
		{"responses-unknown-key", "responses:\n  famlies: []\n", "m.yaml:4: responses: unknown key \"famlies\"", "a misspelt responses key is named with its line"},
		{"responses-not-list", "responses:\n  families: {id: a}\n", "m.yaml:4: responses families must be a list", "families is a list"},
		{"responses-empty", "responses:\n  families:\n    - {id: a}\n", "m.yaml:5: responses family a: empty match (give hosts or host_patterns)", "a family matches hosts"},
		{"responses-path", "responses:\n  families:\n    - {id: a, hosts: [a.com], paths: [/v1]}\n", "m.yaml:5: responses family: unknown key \"paths\"", "a sealing key's reach is a host, not a path"},
		{"responses-models", "responses:\n  families:\n    - {id: a, hosts: [a.com], models: [gpt]}\n", "unknown key \"models\"", "the model is part of the issuer, not of the family"},
		{"responses-bad-host", "responses:\n  families:\n    - {id: a, hosts: [\"https://a.com\"]}\n", "m.yaml:5: responses family a hosts: bad host \"https://a.com\"", "hosts are bare hostnames"},
		{"responses-bad-pattern", "responses:\n  families:\n    - {id: a, host_patterns: [\"*.azure\"]}\n", "responses family a host_patterns: bad pattern \"*.azure\"", "a pattern keeps its last two labels literal"},
		{"responses-per-host", "responses:\n  families:\n    - {id: a, hosts: [a.com], per_host: yes please}\n", "m.yaml:5: responses family a per_host must be true or false", "per_host is a boolean"},
		{"responses-id", "responses:\n  families:\n    - {id: Azure_OpenAI, hosts: [a.com]}\n", "m.yaml:5: responses family: id \"Azure_OpenAI\" must be kebab-case", "family ids are kebab-case"},
		{"responses-duplicate", "responses:\n  families:\n    - {id: a, hosts: [a.com]}\n    - {id: a, hosts: [b.com]}\n", "m.yaml:6: responses family: duplicate id \"a\"", "family ids are unique"},
	}
	for _, tc := range tests {
		_, err := matrix.Parse("m.yaml", []byte(head+tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %s: error %v, want %q", tc.name, tc.reason, err, tc.want)
		}
	}
}
