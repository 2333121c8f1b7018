// The compaction suite replays the "compaction" scenario on every target
// of matrix.yaml. Its requirement, quoted from the scenario: "Compaction
// drops only whole turns and obsoleted checkpoints, the kept turns keep
// their reasoning and encrypted items byte for byte, the request after it
// carries them, the provider's answer still states each kept turn's
// conclusion and none of the dropped, and the estimate converges in one
// pass."
package suites_test

var _ = scenarioTable("compaction")
