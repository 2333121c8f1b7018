package providers

import (
	"strings"
	"testing"
)

// TestServesHosts: serves.hosts closes a profile's hosts to the exact
// hostnames listed, each the profile's host or a subdomain of it; a
// declaration of hosts alone serves every model; a bad entry is named.
func TestServesHosts(t *testing.T) {
	const decl = "serves:\n  hosts: [api.example.com, eu.api.example.com]\n  source: https://example.com/regions\n  confidence: confirmed\n  note: the docs list two base URLs\n"
	p, err := Parse(negFile, []byte(baseProfile+decl))
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]bool{"api.example.com": true, "eu.api.example.com": true, "us.api.example.com": false, "other.api.example.com": false} {
		if got := p.ServesHost(host); got != want {
			t.Errorf("ServesHost(%s) = %v, want %v", host, got, want)
		}
	}
	if !p.ServesModel("anything-1") {
		t.Error("a declaration of hosts alone refused a model")
	}
	open, err := Parse(negFile, []byte(baseProfile))
	if err != nil {
		t.Fatal(err)
	}
	if !open.ServesHost("other.api.example.com") {
		t.Error("a profile that declares no hosts refused a subdomain of its host")
	}
	for _, tc := range []struct{ reason, hosts, want string }{
		{"another domain", "[api.example.org]", `serves: host "api.example.org" is none of the profile's hosts (api.example.com)`},
		{"a parent domain", "[example.com]", `serves: host "example.com" is none of the profile's hosts`},
		{"a look-alike", "[xapi.example.com]", `serves: host "xapi.example.com" is none of the profile's hosts`},
		{"a pattern", "[\"*.api.example.com\"]", `serves: host "*.api.example.com" is not a bare lower-case host name`},
		{"a URL", "[\"https://api.example.com\"]", "is not a bare lower-case host name"},
		{"twice", "[api.example.com, api.example.com]", `serves: host "api.example.com" is listed twice`},
	} {
		text := baseProfile + strings.Replace(decl, "[api.example.com, eu.api.example.com]", tc.hosts, 1)
		if _, err := Parse(negFile, []byte(text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.reason, err, tc.want)
		}
	}
}

// TestCommittedServesHosts: DeepSeek's Responses profile serves only
// api.deepseek.com; OpenRouter's its three data regions; MiMo's its
// pay-as-you-go host and the three Token Plan clusters.
func TestCommittedServesHosts(t *testing.T) {
	ps, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	by := ByName(ps)
	for _, tc := range []struct {
		profile string
		served  []string
		not     []string
	}{
		{"deepseek-responses", []string{"api.deepseek.com"}, []string{"api.api.deepseek.com", "eu.api.deepseek.com"}},
		{"openrouter-responses", []string{"openrouter.ai", "eu.openrouter.ai", "us.openrouter.ai"}, []string{"api.openrouter.ai"}},
		{"mimo", []string{"api.xiaomimimo.com", "token-plan-cn.xiaomimimo.com", "token-plan-sgp.xiaomimimo.com", "token-plan-ams.xiaomimimo.com"}, []string{"xiaomimimo.com", "platform.xiaomimimo.com", "token-plan-us.xiaomimimo.com"}},
	} {
		p := by[tc.profile]
		for _, h := range tc.served {
			if !p.ServesHost(h) {
				t.Errorf("%s: %s is not served", tc.profile, h)
			}
		}
		for _, h := range tc.not {
			if p.ServesHost(h) {
				t.Errorf("%s: %s is served", tc.profile, h)
			}
		}
	}
}
