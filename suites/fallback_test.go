// The fallback suite replays the "fallback" scenario on every target of
// matrix.yaml. Its requirement, quoted from the scenario: "A refused field
// is learnt from the refusal, persisted, retried exactly once, and never
// relearnt after resume; a value complaint is never learnt, a refusal
// repeated is never retried, and a route that must echo reasoning_content
// never records it."
package suites_test

var _ = scenarioTable("fallback")
