package probe

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// Evidence is the recorded answer to one wire variant of a battery.
type Evidence struct {
	// Scenario names the battery (the scenario whose cassette holds it).
	Scenario string
	// Variant says what the request carried, in words.
	Variant string
	// Interaction is the answer's index in the cassette, -1 when the
	// request is not in it.
	Interaction int
	// Status is the provider's HTTP status, 0 when nothing was recorded.
	Status int
	// Body is the provider's answer.
	Body string

	// carried names the reasoning carriers the request carried.
	carried []string
}

// carries reports whether the request carried carrier c.
func (e Evidence) carries(c engine.Carrier) bool { return slices.Contains(e.carried, string(c)) }

// Recorded reports whether the battery holds an answer to the variant.
func (e Evidence) Recorded() bool { return e.Status != 0 }

// Accepted reports whether the provider accepted the variant.
func (e Evidence) Accepted() bool { return e.Status/100 == 2 }

func (e Evidence) String() string {
	if !e.Recorded() {
		return fmt.Sprintf("%s battery, %s: not recorded", e.Scenario, e.Variant)
	}
	s := fmt.Sprintf("%s battery, %s: %d", e.Scenario, e.Variant, e.Status)
	if e.Interaction >= 0 {
		s += fmt.Sprintf(" (interaction %d)", e.Interaction)
	}
	return s
}

// A Finding is one conclusion of the probe and the recorded variants that
// show it.
type Finding struct {
	// Subject is what the conclusion is about: a carrier, a signature, the
	// pad, a replay contract.
	Subject string
	// Verdict is the conclusion: accepted, refused, read, required…
	Verdict string
	// Shown are the variants that isolate it: for a refusal, the accepted
	// request and the same request with the subject added.
	Shown []Evidence
}

func (f Finding) String() string {
	s := f.Subject + ": " + f.Verdict
	if len(f.Shown) == 0 {
		return s
	}
	parts := make([]string, len(f.Shown))
	for i, e := range f.Shown {
		parts[i] = e.String()
	}
	return s + " (shown by " + strings.Join(parts, "; against ") + ")"
}

// evidence describes one exchange of a replayed variant: its interaction
// in the cassette dir/<target>/<scenario>.yaml.
func evidence(dir string, r engine.Route, id, scenario, variant string, ex engine.Exchange) Evidence {
	e := Evidence{Scenario: scenario, Variant: variant, Interaction: -1, Status: ex.Status, Body: string(ex.Response), carried: ex.Carried}
	replay, err := harness.OpenReplay(harness.Path(dir, id, scenario))
	if err != nil {
		return e
	}
	defer replay.Close()
	if it, ok := replay.Lookup("POST", requestPath(r.BaseURL, ex.Path), ex.Body); ok {
		e.Interaction = it.ID
	}
	return e
}

// lookup finds the recorded answer to a body the engine never sends (a
// blank pad): its evidence, or a variant not recorded.
func lookup(dir string, r engine.Route, id, scenario, variant, path string, body []byte) Evidence {
	e := Evidence{Scenario: scenario, Variant: variant, Interaction: -1}
	replay, err := harness.OpenReplay(harness.Path(dir, id, scenario))
	if err != nil {
		return e
	}
	defer replay.Close()
	if it, ok := replay.Lookup("POST", requestPath(r.BaseURL, path), body); ok {
		e.Interaction, e.Status, e.Body = it.ID, it.Response.Code, it.Response.Body
	}
	return e
}

// requestPath is the URL path a dialect path takes under a base URL.
func requestPath(base, p string) string {
	u, err := url.Parse(strings.TrimSuffix(base, "/") + p)
	if err != nil {
		return p
	}
	return u.Path
}
