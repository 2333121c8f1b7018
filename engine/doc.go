// Package engine is the reference reasoning-replay engine: the behaviour of
// SPEC.md, with no HTTP and no test framework in it.
//
// # Vocabulary
//
// A carrier is a field that carries model reasoning on the wire: the three
// standard carriers of an OpenAI-style assistant message
// (reasoning_content, reasoning, reasoning_details; see [Carrier]) and the
// native carriers of other dialects (Anthropic thinking blocks, Bedrock
// reasoningContent, Gemini thoughtSignature, Copilot reasoning_opaque,
// OpenAI Responses reasoning items with encrypted_content).
// Opaque carriers are signed or encrypted bytes, echoed byte for byte or
// not at all. A route is where a request goes ([Route]: api mode,
// provider, base URL, model). The route table ([Table]) decides which
// carriers a route reads; it is data loaded from matrix.yaml, never Go
// code. Stored history ([Session]) keeps every carrier forever; only the
// per-request wire copy is shaped.
//
// # One round trip
//
//  1. Decide: [Table.Decide] turns a route and the carriers the session
//     has seen it refuse into a [Decision]: the carriers to send, the
//     must-echo pad, vendor flags and private native fields.
//  2. Shape: a [Dialect] (engine/chat, engine/anthropic, engine/bedrock,
//     engine/gemini, engine/responses; listed in engine/dialects) builds
//     the request body from the session and the decision, without
//     touching the session.
//  3. Send: the caller's [Sender] delivers it; the engine never does HTTP.
//  4. Capture: on success the dialect turns the response, whole or
//     streamed, into a stored assistant [Message] holding every carrier,
//     including the private record (hermes.native_assistant) for fields
//     only their own route may see.
//  5. Fall back: on a refusal the dialect may learn a verdict — a refused
//     carrier (SPEC §6), a rejected signature, a sealed blob — and record
//     it in the session's [ModelConfig]; the request is reshaped in flight
//     and retried once per verdict. [Engine.Turn] runs steps 1–5.
//
// Around the round trip: [Compact] summarises old turns away while the
// kept turns keep all their reasoning, pricing messages with the same
// [PriceMessage] and [StaleThinkingReachesWire] as the preflight
// [Estimate]; [Branch] copies a session; engine/store persists sessions in
// a SQLite file, so a resumed session shapes exactly like the live one.
package engine
