// The carriers suite replays the "carriers" scenario on every target of
// matrix.yaml. Its requirement, quoted from the scenario: "What the route
// sends on a replayed reasoning turn is accepted."
package suites_test

var _ = scenarioTable("carriers")
