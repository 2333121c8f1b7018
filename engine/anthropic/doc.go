// Package anthropic is the Anthropic Messages dialect of the reference
// engine (SPEC §4.1): Anthropic's own API, Claude on Bedrock (InvokeModel),
// Vertex (rawPredict) and Azure AI Foundry, and Anthropic-compatible
// endpoints (MiniMax, Kimi, DeepSeek).
//
// # Storage
//
// Capture stores a turn's content blocks in order (thinking,
// redacted_thinking, text, tool_use) as the message's native turn, each in
// a canonical form so that a streamed and a whole capture of the same
// response store the same bytes, and the chat-standard view beside them:
// the text as content, tool_use blocks as tool calls, the readable
// thinking as reasoning_content (so a later chat route can still read it).
//
// # Replay
//
// The route table (matrix.yaml `anthropic:`) classifies a route as signed
// (thinking byte for byte, signatures included), unsigned (thinking text
// only) or stripped (an unknown relay: no thinking). Thinking of the
// in-flight tool loop (assistant turns after the last real user message)
// is replayed on every route that is not stripped; thinking of earlier
// turns only where the route's prior-thinking rule allows it. A native
// turn replays its stored blocks in order and unmodified, so each step's
// thinking stays before its tool_use and the latest assistant message is
// never edited; only whole thinking blocks are left out. A turn whose
// visible text or tool calls no longer match its native blocks (a
// display-only branch) replays from the standard view instead, and a
// tool_use without a tool result in the history is never sent.
//
// # Refusals
//
// On "Invalid signature in thinking block" a route that learns rejections
// records the fingerprint of every signed block of the refused request in
// the session's model config, and every later request leaves those blocks
// out; the request is retried once. Other routes, and a request with
// nothing to fingerprint, are repaired once by retrying without any
// thinking, and nothing is recorded.
package anthropic
