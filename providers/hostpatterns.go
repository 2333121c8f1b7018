package providers

import (
	"slices"

	"github.com/replaycheck/replaycheck/engine"
)

// PatternNames reports whether one of the profile's host patterns matches
// hostname (normalised: lower-cased, no trailing dot), the way a route
// table's host_patterns match: the whole hostname, "*" standing for part
// of one label.
func (p *Profile) PatternNames(hostname string) bool {
	return p != nil && slices.ContainsFunc(p.HostPatterns, func(pattern string) bool {
		return engine.HostPatternMatches(hostname, pattern)
	})
}
