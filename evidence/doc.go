// Package evidence holds the engine and the simulator against imported
// recordings of real provider traffic (cassettes/<target>/recorded/*.yaml,
// written by `replaycheck import`) and turns what they show into the
// recorded-evidence section of the matrix. Each recorded exchange gets
// three checks:
//
//  1. Capture: the answer, whole or streamed, becomes a stored assistant
//     message through the target's dialect, and every carrier the answer
//     holds (reasoning text concatenated across deltas, signatures,
//     redacted and encrypted data, thought signatures, opaque blobs, read
//     from the answer independently of the dialect's code) is found in
//     the stored message verbatim.
//  2. Reproduction: the engine is fed the conversation up to the
//     exchange — each assistant turn of the recorded request replaced by
//     the captured answer of the earlier exchange it answers — and shapes
//     the request for the target's route with the recorded model. Its
//     assistant turns are compared with the recorded ones (see [compare]):
//     opaque carriers byte for byte and in position, everything else as a
//     JSON-path diff, each difference a [report.Finding] with both sides
//     and a judgement. The engine sending less than the provider accepted
//     is advisory; more is a failure unless another recorded request of
//     the target shows it accepted; the same is a pass.
//  3. Simulator fidelity: the target profile's simulator answers the
//     recorded request in-process; its status, and for a 4xx its error
//     wording, must agree with the recorded answer. A disagreement names
//     the profile rule that fired (or says none did) and the recording; a
//     refusal by a signature rule of a request carrying the real
//     provider's signatures is unverifiable, since the simulator verifies
//     only the signatures it issued.
//
// A check that cannot run says so with its reason (not-checked: no
// dialect for the api mode, a response-only fixture, a turn answered by
// another endpoint), never silently. [Apply] then marks the matrix cells
// the checks are evidence for as (rec), and a failing check fails its
// cell. Nothing here reaches the network.
package evidence
