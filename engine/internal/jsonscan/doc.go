// Package jsonscan holds the byte-level JSON helpers the native dialects
// share: finding where a JSON string body ends without decoding it (the
// stream fast paths), and rebuilding an object with one key's value
// replaced (request reconciliation).
package jsonscan
