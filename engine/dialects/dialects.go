// Package dialects lists the engine's wire dialects explicitly, one per api
// mode, so that callers (the CLI, the scenario runner) pick a dialect by
// mode without importing each dialect package.
package dialects

import (
	"fmt"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/anthropic"
	"github.com/replaycheck/replaycheck/engine/bedrock"
	"github.com/replaycheck/replaycheck/engine/chat"
	"github.com/replaycheck/replaycheck/engine/gemini"
	"github.com/replaycheck/replaycheck/engine/responses"
)

// all is the explicit list of dialects, built for a route table: the
// native dialects read their route data (matrix.yaml `anthropic:`,
// `bedrock_converse:`, `responses:`) from it.
func all(t *engine.Table) []engine.Dialect {
	return []engine.Dialect{
		chat.Dialect{},
		anthropic.Dialect{Table: t},
		bedrock.Dialect{Table: t},
		gemini.Dialect{},
		responses.Dialect{Table: t},
	}
}

// For returns the dialect serving an api mode with the route table t.
func For(mode engine.APIMode, t *engine.Table) (engine.Dialect, error) {
	if mode == "" {
		mode = engine.ModeChat
	}
	for _, d := range all(t) {
		if d.Mode() == mode {
			return d, nil
		}
	}
	return nil, fmt.Errorf("api mode %q: no dialect (have %v)", mode, Modes())
}

// Modes lists the api modes that have a dialect, in list order.
func Modes() []engine.APIMode {
	list := all(nil)
	out := make([]engine.APIMode, len(list))
	for i, d := range list {
		out[i] = d.Mode()
	}
	return out
}
