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
// The file is schema 2: messages in an ordinary rowid table, in 64 KiB
// pages, so that a message of tens of kilobytes is one or two pages rather
// than a chain of 4 KiB ones. [Open] moves a schema 1 file (WITHOUT ROWID,
// 4 KiB pages) to schema 2 in one transaction, then rebuilds it with the
// larger pages; [OpenReadOnly] reads schema 1 as it is.
//
// Durability is SQLite's default and is not traded for speed: a rollback
// journal (no WAL, so a store is a single file) with synchronous=FULL, so
// a committed save survives a crash and an interrupted one leaves the
// previous state. The one exception is [OpenScratch], for a store its
// maker throws away (the harness's own resume checks): never synced, its
// journal in memory. Otherwise speed comes from doing less, not from
// syncing less:
// messages are encoded and decoded on all processors, each once; a session
// loads in one query; and a Store remembers a fingerprint of each message
// it saved or loaded, so that saving it again unchanged does no work and
// saving it with new messages writes only those.
//
// A [Store] is safe for concurrent use by the goroutines of one process: it
// holds a single connection, and every operation runs in one transaction on
// it. Errors start with "store:" and name the session id, and the message
// index when one is in play.
package store
