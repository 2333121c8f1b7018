// Package report renders the route-by-route pass matrix: one row per target, one column per
// scenario, one [Cell] per target × scenario saying whether the route held against the provider's
// recorded (or simulated) behaviour.
//
// # Data
//
// A [Matrix] names the [Implementation] it checked (the reference engine, or an agent's replay
// code over the engine protocol), and lists its target ids (matrix.yaml order), its scenario
// names (canonical order) and its cells, sorted by target order, then scenario order. Each cell carries a [Status], the
// provenance of the cassette that judged it (simulated or recorded, empty when the scenario does
// not apply) and one paragraph of detail; cells that did not pass also carry what was expected,
// what happened, the provider's recorded error body and the cassette path.
//
// The seven statuses, in the order every renderer lists them:
//
//   - pass: the provider accepted the request and the scenario's assertions hold.
//   - fail: the provider refused the request, or an invariant broke.
//   - unverified: no recorded interaction matches this exact request; record it.
//   - n/a: the scenario does not apply to this target, or the implementation does not support it.
//   - known-fail: declared failing in matrix.yaml with a reason, still run.
//   - advisory: accepted, but the table sends less than the provider is recorded to accept and read.
//   - error: not judged — the cell's input (a cassette, a profile) could not be read, or the
//     implementation under test crashed, timed out or answered malformed output; the detail
//     names the file and position, or the step and request.
//
// [ReadJSON] decodes and validates matrix.json; [Matrix.Validate] states the rules.
//
// # Renderers
//
// [WriteJSON], [WriteMarkdown], [WriteTable], [WriteJUnit] and [WriteHTML] each write one
// format. All of them validate the matrix first and are deterministic: no timestamps, no
// durations, cells in target × scenario order, "\n" line ends and a trailing newline, so the
// generated files under reports/ can be checked with git diff --exit-code. The HTML page is
// self-contained (inline style, no scripts, no fonts, images or links to other hosts).
package report
