// Package chat is the OpenAI chat-completions dialect of the reference
// engine: it shapes the wire copy of a session's history for a route
// (SPEC §3), reconciles an in-flight request after a refusal (§3.2),
// captures carriers from whole and streamed responses (§5), and learns
// unknown-field refusals (§6).
package chat
