package providers

import "testing"

// TestDescribes: a profile speaks for its hosts, their subdomains and
// what its host patterns match, and for nothing else.
func TestDescribes(t *testing.T) {
	p := &Profile{Hosts: []string{"openai.azure.com"}, HostPatterns: []string{"bedrock-runtime.*.amazonaws.com"}}
	tests := []struct {
		host   string
		want   bool
		reason string
	}{
		{"openai.azure.com", true, "a host of its own"},
		{"contoso-eastus.openai.azure.com", true, "an Azure resource under it"},
		{"bedrock-runtime.us-west-2.amazonaws.com", true, "a region its pattern matches"},
		{"evilopenai.azure.com", false, "a look-alike is no subdomain"},
		{"api.openai.com", false, "another provider's host"},
		{"", false, "no host"},
	}
	for _, tc := range tests {
		if got := p.Describes(tc.host); got != tc.want {
			t.Errorf("%s: %s: got %v", tc.host, tc.reason, got)
		}
	}
}
