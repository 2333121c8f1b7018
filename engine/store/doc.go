// Package store is the session store of the reference engine: one SQLite
// file, written through the pure-Go modernc.org/sqlite driver (no cgo).
//
// A session is stored as one row of model config (its JSON) and one row per
// message, keyed by the session id and a sequence number, holding the
// message's storage JSON ([engine.Message.MarshalJSON]). History is
// append-only: [Store.Append] adds messages at the end, and [Store.Save]
// refuses a session whose messages do not extend what is stored. Resuming a
// session means closing the file, opening it again and calling [Store.Load];
// the reloaded session shapes exactly like the live one (SPEC §8).
//
// A [Store] is safe for concurrent use by the goroutines of one process: it
// holds a single connection, and every operation runs in one transaction on
// it. Errors start with "store:" and name the session id, and the message
// index when one is in play.
package store
