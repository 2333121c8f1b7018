// Package realdata loads the recorded provider traffic kept outside the
// repository (../shared/realdata relative to its root) for the dialect
// packages' tests. The files are read in place and never copied; a test
// whose dialect directory is absent is skipped.
package realdata
