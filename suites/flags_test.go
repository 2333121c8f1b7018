// The flags suite replays the "flags" scenario on every target of
// matrix.yaml. Its requirement, quoted from the scenario: "A vendor
// keep-thinking flag travels with the request, so the model still sees an
// earlier turn's reasoning."
package suites_test

var _ = scenarioTable("flags")
