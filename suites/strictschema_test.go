// The strictschema suite replays the "strict-schema" scenario on every
// target of matrix.yaml. Its requirement, quoted from the scenario: "A
// provider whose schema refuses reasoning keys receives none it refuses,
// even when history holds every carrier."
package suites_test

var _ = scenarioTable("strict-schema")
