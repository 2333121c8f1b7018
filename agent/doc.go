// Package agent checks an unmodified agent by playing its provider:
// `replaycheck agent`. For each target and scenario it starts the target
// profile's simulator on loopback, runs the agent's own command once
// against it (a fresh HOME and XDG directories, the simulator's base URL
// in its arguments and in the variables common SDKs read, a fake key),
// lets the simulator drive the agent's own tool loop, and judges the
// requests the simulator received — never the agent's exit code.
//
// # The conversation
//
// The simulator answers a request that declares tools and ends with a user
// turn with reasoning and a call to one of those tools, its arguments
// filled from the tool's JSON schema ([Arguments]); every other request
// (a title request, say) gets a plain answer. The judged request is the
// first the agent sends back carrying the call's id, found by content, not
// position. What the first answer carries depends on the scenario:
//
//   - carriers: the profile's own carriers; the tool-result request must be
//     accepted, and must send back a carrier the provider reads when the
//     answer carried one;
//   - missing-echo: no reasoning at all; the bare tool turn must still be
//     accepted (DeepSeek V4 refuses it without reasoning_content, and
//     refuses "");
//   - strict-schema: every standard carrier, as a turn served by another
//     provider holds them; none the provider refuses may come back;
//   - fallback: the first standard carrier the provider refuses; when the
//     provider refuses it sent back, the agent must retry exactly once
//     without it;
//   - signed-roundtrip: the profile's signatures; each must come back byte
//     for byte;
//   - flags: the provider's keep-thinking flag must travel with the request.
//
// resume runs with the agent's own resume command (Options.ResumeCommand):
// the live session, then the command that continues it with a new prompt,
// in the same home and working directory; the resumed session's first
// request must send the live request's conversation as it was sent,
// reasoning included. compaction runs the same way with the agent's own
// compact command (Options.CompactCommand): the turns the compacted session
// keeps must go out as they did live. branch needs the agent's internals
// and is n/a here.
//
// # Verdicts
//
// A refusal is a fail in the provider's words (the profile's verbatim
// body). An agent that sends nothing, exits or hangs before the judged
// request, or sends a body the dialect cannot parse gets an error cell
// naming the step; never a pass. Each cell's exchanges are kept in a
// cassette of provenance agent.
package agent
