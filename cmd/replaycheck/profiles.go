package main

import (
	"errors"
	"io/fs"
	"os"

	"github.com/replaycheck/replaycheck/providers"
)

// loadProfiles loads the provider profiles by name: from dir when it
// exists, else the profiles embedded in the binary (so the CLI works
// outside a checkout and without a Go toolchain).
func loadProfiles(dir string) (map[string]*providers.Profile, error) {
	var list []*providers.Profile
	var err error
	if _, statErr := os.Stat(dir); errors.Is(statErr, fs.ErrNotExist) {
		list, err = providers.Embedded()
	} else {
		list, err = providers.LoadDir(dir)
	}
	if err != nil {
		return nil, err
	}
	return providers.ByName(list), nil
}
