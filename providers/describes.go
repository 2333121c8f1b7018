package providers

import (
	"slices"

	"github.com/replaycheck/replaycheck/engine"
)

// Describes reports whether the profile speaks for hostname (normalised:
// lower-cased, no trailing dot): one of its Hosts or a subdomain of one
// (an Azure resource under openai.azure.com), or a hostname one of its
// HostPatterns matches (a Bedrock or Vertex region).
func (p *Profile) Describes(hostname string) bool {
	if p == nil || hostname == "" {
		return false
	}
	return slices.ContainsFunc(p.Hosts, func(h string) bool { return engine.HostMatches(hostname, h) }) || p.PatternNames(hostname)
}
