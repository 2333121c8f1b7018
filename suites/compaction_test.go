// The compaction suite replays the "compaction" scenario on every target
// of matrix.yaml. Its requirement, quoted from the scenario: "After
// compaction the request still carries the kept turns' reasoning, the
// answer stays consistent with the earlier conclusion, and the estimate
// converges in one pass."
package suites_test

var _ = scenarioTable("compaction")
