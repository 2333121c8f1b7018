// Package suites holds the Ginkgo suite that replays every committed
// cassette through the scenarios and produces the route-by-route matrix.
//
// The suite lives in this package's test files (package suites_test): one
// RunSpecs, so that one ReportAfterSuite sees every cell, and one file per
// scenario class (carriers_test.go … flags_test.go), each a DescribeTable
// over the targets of matrix.yaml with one entry "<target>/<scenario>" per
// target, labelled "target:<id>" and "scenario:<name>":
//
//	go test ./suites/ -ginkgo.label-filter='target:deepseek'
//	go test ./suites/ -ginkgo.label-filter='scenario:missing-echo'
//
// Every spec calls the same scenario.Runner.Cell that `replaycheck run`
// calls, so the suite and the command cannot disagree. A cell maps to a
// spec outcome: pass, advisory and known-fail pass (the last two with a
// note in the spec's output); n/a and unverified are skipped, the
// unverified message showing the nearest recorded interaction and the
// JSON-path diff; fail fails with the expected and actual behaviour, the
// provider's recorded error and the cassette path. The suite fails when
// no spec ran.
//
// The suite runs from the repository root (matrix.yaml, providers/,
// cassettes/) and reads two environment variables:
//
//   - REPLAYCHECK_REPORTS=DIR writes matrix.md, matrix.json, junit.xml and
//     matrix.html into DIR from the whole matrix (make reports). Unset, no
//     file is written; instead, when reports/matrix.json exists, the suite
//     fails if the matrix it measured differs from it, so a stale report
//     is caught by go test.
//   - REPLAYCHECK_CASSETTES=DIR replays the cassettes in DIR instead of
//     cassettes/, and then skips the comparison with reports/.
//
// Relative paths are taken from the repository root.
package suites
