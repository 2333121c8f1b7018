// Package bedrock is the Amazon Bedrock Converse dialect of the reference
// engine (SPEC §4.2), and the reader of AWS event-stream frames that
// ConverseStream and InvokeModelWithResponseStream answer with.
//
// # Storage
//
// Capture stores a turn's Converse content blocks in order (text,
// reasoningContent, toolUse) as the message's native turn, in a canonical
// form (each reasoning member its own block, the signature inside
// reasoningText), and the standard view beside them: the text blocks
// joined with "\n" as content, the reasoning texts joined with "\n\n" as
// reasoning_content, the tool uses as tool calls, and every reasoning
// member as an Anthropic-format reasoning_details item in block order
// ({"type":"thinking","thinking","signature"} and
// {"type":"redacted_thinking","data"}). A reloaded turn therefore replays
// exactly like the live one, and a turn with no native blocks (captured
// elsewhere) replays from those items.
//
// # Replay
//
// The route table (matrix.yaml `bedrock_converse:`) gives each model a
// replay contract: signed (reasoningText with its signature; unsigned
// reasoning is never sent to a model that signs), unsigned (reasoningText
// without a signature) or stripped (no reasoning); Claude models also get
// thinking requested through additionalModelRequestFields.thinking. A
// message left without blocks is dropped and same-role neighbours are
// merged, since Converse wants alternating roles.
//
// # Refusals
//
// A ValidationException about encrypted or redacted reasoning sealed to
// another region or model records the fingerprints of the replayed
// redactedContent blobs in the session's model config; the request is
// resent once without them (readable reasoningText and toolUse stay), and
// later requests never send them again. An "Invalid signature in thinking
// block" refusal does the same for the signed blocks it was sent.
package bedrock
