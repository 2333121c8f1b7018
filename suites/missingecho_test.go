// The missingecho suite replays the "missing-echo" scenario on every
// target of matrix.yaml. Its requirement, quoted from the scenario: "A
// provider that refuses a tool-call turn without its reasoning gets the
// one-space pad on a bare tool turn."
package suites_test

var _ = scenarioTable("missing-echo")
