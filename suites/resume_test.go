// The resume suite replays the "resume" scenario on every target of
// matrix.yaml. Its requirement, quoted from the scenario: "A turn reloaded
// from the session store replays exactly like the live turn, and the
// provider's answer to it states the same conclusions."
package suites_test

var _ = scenarioTable("resume")
