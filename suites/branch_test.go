// The branch suite replays the "branch" scenario on every target of
// matrix.yaml. Its requirement, quoted from the scenario: "A branch
// carries its own copy of every carrier, its next request is shaped
// exactly as the parent's and answered with the same conclusions."
package suites_test

var _ = scenarioTable("branch")
