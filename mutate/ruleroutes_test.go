package mutate_test

import (
	"testing"

	"github.com/replaycheck/replaycheck/mutate"
)

// TestRuleRoutesMakeEquivalenceHonest: a rule that needs a provider id
// and a model substring at once (as the Vertex native-field rule needs a
// provider id or a Vertex host and a path) is reached by no target with
// one part replaced; the routes its own patterns build are probed too, so
// dropping it survives on such a route instead of being called
// equivalent.
func TestRuleRoutesMakeEquivalenceHonest(t *testing.T) {
	src := fixture + `flags:
  - id: acme-keep
    providers: [acme]
    models: [acme-think]
    set: [{path: keep, value: true}]
    source: https://example.com/acme
`
	rep := run(t, src)
	m := find(t, rep, "drop flags[acme-keep]")
	if m.Outcome != mutate.Survived || m.Route != "chat (acme, https://unlisted.example.com, acme-think)" {
		t.Errorf("%s: %s on %q (%s), want survived on the rule's own route", m.Edit, m.Outcome, m.Route, m.Why)
	}
}
