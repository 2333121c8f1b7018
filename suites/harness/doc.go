// Package harness is the recorder side of the suites: cassette files with
// their provenance, the replay-only transport that matches requests on
// method + URL path + canonical JSON body and explains misses with the
// nearest recorded interaction and a JSON-path diff, the recording
// transport that scrubs secrets before anything is written, and the
// credential scan used by `replaycheck lint`.
//
// It is a plain package, not a test package, so that `replaycheck run`
// and the Ginkgo suites share one implementation.
package harness
