// Package realdata loads the recorded provider traffic kept outside the
// repository (../shared/realdata relative to its root) for tests: the
// dialect packages' capture tests and the evidence checks' realdata test.
// The files are read in place, through the importer that `replaycheck
// import` uses, and never copied; a test whose directory is absent is
// skipped.
package realdata
