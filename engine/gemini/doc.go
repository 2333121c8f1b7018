// Package gemini is the native Gemini dialect of the reference engine
// (SPEC §4.3): generateContent and streamGenerateContent.
//
// # Storage
//
// Gemini turns are stored in the chat-standard view only, so that a turn
// replays the same whether it was captured here, captured through the
// OpenAI-compatible endpoint, or reloaded from the store: the text parts
// concatenated as content, "thought: true" parts concatenated as
// reasoning_content (readable, never replayed to Gemini), each functionCall
// as a tool call whose extra_content carries its thoughtSignature
// ({"google":{"thought_signature":…}}), and the signature of a text part
// (in streams often a trailing empty text part) in the private carrier
// record (SPEC §3.3). A streamed and a whole capture of the same response
// therefore store the same message.
//
// # Replay
//
// A model turn is its text part, then its functionCall parts, each call
// with its own signature back on its part; the text-turn signature goes on
// the last part of the turn, read from the live message-level
// extra_content or from the record alike. Tool results become
// functionResponse parts. A functionCall without a result in the history
// is never sent.
package gemini
