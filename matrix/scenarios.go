package matrix

import "slices"

// Scenarios are the matrix columns, in canonical order (DESIGN.md).
var Scenarios = []string{
	"carriers", "missing-echo", "strict-schema", "fallback", "signed-roundtrip",
	"resume", "compaction", "branch", "flags",
}

// IsScenario reports whether name is a scenario.
func IsScenario(name string) bool { return slices.Contains(Scenarios, name) }
