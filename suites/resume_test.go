// The resume suite replays the "resume" scenario on every target of
// matrix.yaml. Its requirement, quoted from the scenario: "A turn reloaded
// from the session store replays exactly like the live turn."
package suites_test

var _ = scenarioTable("resume")
