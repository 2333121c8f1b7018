// Package sse splits a Server-Sent Events stream into events and records
// where each one starts.
//
// The engine uses it to capture streamed provider responses: OpenAI-style
// "data: {...}" chunks ending in "data: [DONE]", Anthropic's named events
// ("event: content_block_delta" then "data: {...}") and Gemini's
// "data: {...}" chunks. Parsing follows the WHATWG EventSource rules:
//
//   - a line ends at "\n", "\r\n" or "\r";
//   - a line starting with ":" is a comment;
//   - "field: value" sets a field, and one space after the colon is
//     dropped; a line without a colon is a field with an empty value;
//   - the fields are "event", "data" (several data lines are joined with
//     "\n"), "id" and "retry"; other fields are ignored;
//   - an empty line dispatches the event; an event whose data buffer is
//     empty is not dispatched, so comment-only blocks such as ": ping"
//     produce nothing;
//   - a leading UTF-8 byte order mark is skipped.
//
// One rule is deliberately different: a final event that is not followed
// by an empty line is still dispatched at the end of the stream, because a
// captured response body may have lost its last blank line and the data in
// it is real.
//
// Every [Event] carries the byte offset of its first line in the stream,
// so errors and reports can point into a cassette body. A line longer than
// the limit ([Reader.SetMaxLine], 16 MiB by default) and a failing
// underlying reader give errors that name the byte offset.
//
// The reader is linear in the stream and reuses its buffers. Event data is
// copied once into slabs shared by neighbouring events (up to 256 KiB
// each), so keeping one Data string keeps its slab alive; copy it if a
// small piece must outlive a large stream. A caller that copies what it
// keeps anyway reads with [Reader.NextRaw] instead: the data stays in one
// reused buffer, and a stream is read without an allocation per event.
package sse
