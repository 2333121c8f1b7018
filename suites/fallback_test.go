// The fallback suite replays the "fallback" scenario on every target of
// matrix.yaml. Its requirement, quoted from the scenario: "A refused field
// is learnt from the refusal, persisted, retried exactly once, and never
// relearnt after resume."
package suites_test

var _ = scenarioTable("fallback")
