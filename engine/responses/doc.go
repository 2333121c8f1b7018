// Package responses is the OpenAI Responses dialect of the reference
// engine: POST {base}/responses, whole and streamed, on OpenAI, Azure
// OpenAI and the OpenAI-compatible Responses endpoints (DeepSeek,
// OpenRouter).
//
// Requests are stateless: store is false and include asks for
// "reasoning.encrypted_content", so the reasoning of a turn travels as
// reasoning output items ({"type":"reasoning","id":"rs_…","summary":[…],
// "encrypted_content":"gAAAA…"}, or a relay's readable content and
// signature) that the next request must send back in its input, each in
// its place before the item it led to.
//
// # Storage
//
// One response is one stored assistant message. Capture keeps every output
// item of the response in order (reasoning, function_call, reasoning,
// function_call, message, …) in the message's native turn, each compacted
// but otherwise as issued, and records the route that answered as the
// turn's issuer. Beside it the standard view: the message items'
// output_text as content, each function_call as a tool call whose id is
// its call_id (the tool results that follow the message answer it), and
// the readable summaries as reasoning_content, so another dialect can
// still replay the turn. The encrypted content lives only in the native
// turn. The native turn, issuer included, round-trips through the session
// store byte for byte, so a resumed turn shapes exactly like the live one;
// compaction and branches copy messages whole.
//
// # Replay
//
// An encrypted reasoning item is sealed by the service that issued it, so
// it is replayed only to its issuing family, for the same model (SPEC
// §9.5). A family is route-table data (matrix.yaml `responses: families`):
// hosts that accept each other's items, optionally each host on its own
// (Azure resources); a hostname no family lists is a family of its own.
// On a route of the issuer's family and model, the assistant message's
// stored items are replayed in order, byte for byte but without their
// output "status" (no recording shows a service taking it back, and the
// recorded clients that were answered 200 sent none) and without their
// text parts' "logprobs" (the probabilities of an answer already given); a reasoning item goes
// only with the item that followed it (a function_call is left out when
// the history holds no result for it, and its reasoning with it), only
// when it holds what the service reads back, and never when the session
// recorded it as refused. Once a reasoning item of a turn stays out, the
// items after it are sent without their ids. Everywhere else, and for a
// turn whose text or tool calls no longer match its items (a display-only
// branch), the message is replayed from the standard view: an assistant
// message item and id-less function_call items. A reasoning item is never
// reconstructed from readable text. Tool results become
// function_call_output items, user messages user message items, and system
// texts the instructions.
//
// # Refusals
//
// See [Dialect.Learn]: refused encrypted content and relayed signatures
// are fingerprinted, persisted and left out (one retry); missing-item
// refusals are final.
package responses
