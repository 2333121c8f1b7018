package main

import (
	"fmt"
	"runtime/debug"

	"github.com/replaycheck/replaycheck/protocol"
)

// runVersion prints the module version (with the commit a checkout was
// built from, when Go recorded it) and the engine protocol version.
func runVersion(std *streams) error {
	fmt.Fprintf(std.out, "replaycheck %s (engine protocol %d)\n", moduleVersion(), protocol.Version)
	return nil
}

// moduleVersion is the version of the main module as the build recorded
// it: a release tag for `go install …@version`, otherwise "(devel)" with
// the commit, and "+dirty" when the tree had changes.
func moduleVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev != "" && (v == "(devel)" || v == "") {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		v += " " + rev + dirty
	}
	return v
}
