// Package dialects lists the engine's wire dialects explicitly, one per api
// mode, so that callers (the CLI, the scenario runner) pick a dialect by
// mode without importing each dialect package.
package dialects

import (
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/chat"
)

// all is the explicit list of dialects.
var all = []engine.Dialect{
	chat.Dialect{},
}

// For returns the dialect serving an api mode.
func For(mode engine.APIMode) (engine.Dialect, error) {
	if mode == "" {
		mode = engine.ModeChat
	}
	for _, d := range all {
		if d.Mode() == mode {
			return d, nil
		}
	}
	return nil, fmt.Errorf("api mode %q: no dialect (have %v)", mode, Modes())
}

// Modes lists the api modes that have a dialect, in list order.
func Modes() []engine.APIMode {
	out := make([]engine.APIMode, len(all))
	for i, d := range all {
		out[i] = d.Mode()
	}
	return out
}
