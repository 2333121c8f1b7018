// Package sim is the profile-driven provider simulator behind
// `replaycheck serve`: the executable form of a provider profile
// (providers/*.yaml). It is an independent truth — it never imports the
// engine — so it reads requests with gjson and writes every response
// itself.
//
// # Requests
//
// The dialect comes from the profile's api mode, not from the path: any
// POST is a model call and anything else is a 404. The body must be a JSON
// object with a messages array (contents for gemini, input for
// responses); otherwise the simulator answers 400 with its own JSON error
// naming the problem. The model is the body's "model" (chat, anthropic,
// responses) or the URL's (/model/{modelId}/converse[-stream],
// /models/{model}:generateContent). A request streams when its body says
// "stream": true (chat, anthropic, responses), its path ends with
// /converse-stream, or contains :streamGenerateContent.
//
// # Rules
//
// The profile's rules are checked in order and the first whose condition
// holds (and applies to the model, [providers.Condition.AppliesTo]) answers
// with its status and body, placeholders filled: {index} the 0-based
// message (or content) index, {field} the condition's field, {path} the JSON path of
// the message field or content block in play (messages.2.reasoning_content,
// messages.1.content.0, contents.3.parts.0) and {request_id}
// ("sim_" + 12 hex of sha256(body); bodies carry the vendor's prefix, so
// "req_{request_id}" renders req_sim_…). A streaming request to a rule with
// stream_framing sse gets the body as one `data:` line (text/event-stream).
//
// Condition fields understood per dialect:
//
//   - chat: any key for assistant_field_present and tool_turn_field_missing;
//     signed carriers reasoning_details (signature of reasoning.text items,
//     data of reasoning.encrypted items), reasoning_opaque (required on the
//     last tool-call message), extra_content.google.thought_signature and
//     function.thought_signature (required on the first tool call of every
//     assistant message after the last user message).
//   - anthropic: tool_turn_field_missing(thinking) when thinking is enabled
//     or adaptive; thinking.signature (thinking blocks and redacted_thinking
//     data); redacted_thinking for sealed_blob_foreign.
//   - bedrock-converse: tool_turn_field_missing(reasoningContent) when
//     additionalModelRequestFields.thinking is on;
//     reasoningContent.reasoningText.signature;
//     reasoningContent.redactedContent for sealed_blob_foreign.
//   - gemini: thoughtSignature.
//   - responses: reasoning.encrypted_content (a reasoning item's encrypted
//     content: missing, not opening under the key, or sealed for another
//     model), reasoning.signature (a relay's signature over the item's
//     readable content); and the item conditions reasoning_without_follower
//     (a reasoning item the simulator issued not directly followed by the
//     item it led to), item_without_reasoning (an item sent with the id the
//     simulator issued it under, without its reasoning item right before
//     it) and tool_output_missing (a function_call not answered before the
//     next message). Bodies get {item}, {item_type} and {ref}.
//
// Every answer carries [SimulatorHeader] ("<profile>/v<version>") and a
// refusal also [RuleHeader] (the rule's id), which the replay harness reads
// when the simulator judges a request no cassette holds; cassettes keep
// only Content-Type, so neither header is ever recorded.
//
// New refuses a profile that fails [providers.Profile.Validate] or has a
// condition outside this vocabulary.
//
// # Answers
//
// Otherwise the simulator answers 200 in the dialect's shape, whole or
// streamed (chat and Gemini as SSE, Anthropic and Responses as named SSE
// events, Converse as AWS event-stream frames). The turn is a reasoning text — "Reasoning
// on: <first 60 chars of the last user text>. [memo:<8 hex>]" — then a tool
// call to the first declared tool (when the request declares tools and ends
// with a user turn) or a final answer listing every [memo:…] in replayed
// reasoning the model can see: carriers in the profile's reads, and, when a
// keeps-prior-reasoning flag applies to the model but the request does not
// carry it, only reasoning after the last user turn. Streams split text
// carriers into several deltas and send signatures last.
//
// Carriers follow the profile's emits: chat reasoning_content, reasoning,
// reasoning_details (a reasoning.text item, signed when the profile signs
// reasoning_details, plus a reasoning.encrypted item under
// encrypted-details), Copilot reasoning_text and reasoning_opaque (with
// function.thought_signature on tool calls), Gemini OpenAI-compatible
// extra_content.google.thought_signature (per tool call, or on the message
// of a text turn); Anthropic thinking blocks (signature_delta last in
// streams); Converse reasoningContent ({"signature"} delta last; none, not
// even redacted, when the profile's emits.when_thinking is set and the
// request does not enable thinking); Gemini a
// thought part, then a signed functionCall part or text part (streams end
// with an empty text part carrying the signature). A user text containing
// Anthropic's redaction trigger string gets redacted_thinking /
// redactedContent instead, on profiles that sign redacted data. Responses:
// a reasoning output item (summary, readable content, encrypted content or
// a signature, per the profile's emits and signing) whose id shares a pair
// id with the function_call or message it led to ("rs_<pair>",
// "fc_<pair>", "msg_<pair>": 12 hex of the request digest and 12 of their
// HMAC); streams send output_item.added, the summary, text and argument
// deltas, output_item.done and response.completed with the whole response.
// The model sees again the decrypted content of a genuine encrypted item,
// or an item's readable content, never a summary alone.
//
// # Signatures
//
// Every signature is HMAC-SHA256 under a key derived from
// ("replaycheck-sim", seed, profile name): a detached signature is
// base64(HMAC(name + "\x00" + text)); a sealed blob (redacted thinking,
// reasoning.encrypted data, reasoning_opaque) is base64(model + "\x00" +
// text + "\x00" + tag), so its model stays readable; a thought signature is
// a sealed blob with no model. Responses encrypted content is a token in
// Fernet's layout (version 0x80, the fixed timestamp, an IV, AES-128-CTR of
// model + "\x00" + text, an HMAC tag; URL-safe base64), so it reads like
// OpenAI's "gAAAAA…" values and only the simulator opens it. Anything
// issued under another seed or profile, or edited, fails verification.
package sim
