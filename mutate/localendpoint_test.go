package mutate_test

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/mutate"
)

// TestLocalEndpointProbes: without a target at a dotless name or in the
// Tailscale range, the local rule's dotless_hostnames and ranges are
// still judged, on a route by a dotless name and an address in the range:
// survivors, not equivalents.
func TestLocalEndpointProbes(t *testing.T) {
	src := strings.Replace(fixture, "default_carriers: [reasoning_content]\n", `default_carriers: [reasoning_content]
local_endpoint:
  carriers: [reasoning_content, reasoning]
  hostnames: [localhost]
  dotless_hostnames: true
  ranges: [100.64.0.0/10]
`, 1)
	rep := run(t, src)
	for edit, host := range map[string]string{
		"set local_endpoint.dotless_hostnames to false": "https://unlisted-service,",
		"drop 100.64.0.0/10 from local_endpoint.ranges": "https://100.64.0.1,",
	} {
		if m := find(t, rep, edit); m.Outcome != mutate.Survived || !strings.Contains(m.Route, host) {
			t.Errorf("%s: %s on %q, want survived on a route at %s", edit, m.Outcome, m.Route, host)
		}
	}
}
