// Package protocol is the engine protocol: JSON lines over stdin/stdout
// through which replaycheck checks any replay implementation, in any
// language, against the same cassettes and scenarios as the reference
// engine. README.md beside this file is the guide; schema/v1.json is the
// normative schema, and the types in messages.go are the same schema in Go.
//
// The harness side is [Client]: it starts the implementation, says hello,
// and answers [scenario.Engine], so a [scenario.Runner] checks every cell
// through it. Each request is bounded by a timeout; a crash, a timeout or a
// reply that breaks the schema (decoded strictly, unknown and missing
// fields refused with their JSON path) is an [*Error] naming the step and
// the request, the process is replaced for the next cell, and the run goes
// on. An unsupported step is a [*scenario.UnsupportedError]: the cell is
// n/a with the implementation's reason.
//
// The implementation side is [Server], which serves a
// [scenario.Implementation] in process; `replaycheck connector` serves the
// reference engine with it.
package protocol
