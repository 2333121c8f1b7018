package main

import (
	"fmt"
	"sort"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
)

// defaultProvidersDir is where the provider profiles live in a checkout;
// outside one, the profiles compiled into the binary are used.
const defaultProvidersDir = "providers"

// profileSetFlag is the --providers flag of the commands that need the
// provider profiles (serve, record, lint).
type profileSetFlag struct {
	dir string
}

func (p *profileSetFlag) register(f *commandFlags) {
	f.StringVar(&p.dir, "providers", "", "the provider profiles `DIR` (default ./providers when present, else the profiles built into the binary)")
}

// load returns the profiles by name: those in --providers DIR when given
// (which must exist), else those in ./providers when that directory
// exists, else the profiles built into the binary.
func (p *profileSetFlag) load() (map[string]*providers.Profile, error) {
	if p.dir == "" {
		return loadProfiles(defaultProvidersDir)
	}
	list, err := providers.LoadDir(p.dir)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*providers.Profile, len(list))
	for _, pr := range list {
		out[pr.Name] = pr
	}
	return out, nil
}

// profileFor returns the profile a target names, or an error naming both.
func profileFor(profiles map[string]*providers.Profile, t matrix.Target) (*providers.Profile, error) {
	p, ok := profiles[t.Profile]
	if !ok {
		return nil, fmt.Errorf("target %s: no provider profile %q", t.ID, t.Profile)
	}
	return p, nil
}

// profileNames lists the profile names, sorted.
func profileNames(profiles map[string]*providers.Profile) []string {
	names := make([]string, 0, len(profiles))
	for n := range profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
