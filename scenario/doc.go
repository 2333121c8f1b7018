// Package scenario holds the matrix columns: one scripted conversation per
// scenario (carriers, missing-echo, strict-schema, fallback,
// signed-roundtrip, resume, compaction, branch, flags), driven against one
// target's cassette through an [Implementation]: the reference engine in
// process ([Reference]), or any agent's replay code over the engine
// protocol (package protocol, through [Runner.Engine]). The scripts ask the
// implementation every engine step and judge its answers; HTTP, the
// cassette and the turn loop stay with the harness.
//
// The same code serves three callers, so there is one runner, not two:
//   - the Ginkgo suites and `replaycheck run` replay a cassette and turn the
//     outcome into a matrix cell ([Runner.Cell]);
//   - `replaycheck record` drives each script through the full battery of
//     wire variants against a live endpoint or the simulator ([Record]),
//     always with the reference engine;
//   - `replaycheck probe` records a new provider the same way and infers its
//     acceptance profile from the answers.
//
// Scenarios judge the route table by the provider's recorded answers only;
// they never read provider profiles to decide what a provider accepts
// (profiles decide only which scenarios apply to a target).
package scenario
