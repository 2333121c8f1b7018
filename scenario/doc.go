// Package scenario holds the matrix columns: one scripted conversation per
// scenario (carriers, missing-echo, strict-schema, fallback,
// signed-roundtrip, resume, compaction, branch, flags), driven through the
// reference engine against one target's cassette.
//
// The same code serves three callers, so there is one runner, not two:
//   - the Ginkgo suites and `replaycheck run` replay a cassette and turn the
//     outcome into a matrix cell ([Runner.Cell]);
//   - `replaycheck record` drives each script through the full battery of
//     wire variants against a live endpoint or the simulator ([Record]);
//   - `replaycheck probe` records a new provider the same way and infers its
//     acceptance profile from the answers.
//
// Scenarios judge the route table by the provider's recorded answers only;
// they never read provider profiles to decide what a provider accepts
// (profiles decide only which scenarios apply to a target).
package scenario
