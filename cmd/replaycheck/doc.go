// Command replaycheck is the conformance harness's command line. Its three
// jobs: run (replay every committed cassette and print the route-by-route
// matrix), gate (judge a route-table change against the cassettes; mutate
// scores how many single edits of the table the gate sees), probe
// (record a new provider and propose its row); and around them: record and
// serve (cassettes and the loopback provider simulator), connector (the
// reference engine over the engine protocol, which `run --engine` speaks
// to check any agent's replay code), import (other projects' recordings as
// evidence cassettes, checked by run's recorded-evidence section), lint
// (cassette hygiene and the table's coverage by targets and aliases), and the debugging commands explain, shape, capture
// and session show. The list is in commands.go.
//
// Usage:
//
//	replaycheck <command> [flags] [args]
//	replaycheck help [command]
//
// Every command takes --matrix FILE (default matrix.yaml), the route table.
// Output written with --json, and the JSON that shape and capture print,
// is a stable contract for scripts.
//
// Exit codes: 0 ok, 1 conformance failures found, 2 usage error (unknown
// command, bad or missing flags), 3 harness error or bad input (an
// unreadable file, malformed JSON or SSE), with a message naming the file
// and the position in it.
package main
