package scenario

import (
	"context"
	"slices"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
)

// A Scenario is one matrix column.
type Scenario struct {
	// Name is the column name (matrix.Scenarios).
	Name string
	// Requirement says, in one sentence, what the scenario checks.
	Requirement string
	// Applies reports whether the scenario applies to a target whose
	// provider profile is p, and why not when it does not.
	Applies func(t matrix.Target, p *providers.Profile) (bool, string)
	// Run drives the conversation; it returns nil when every assertion
	// holds, a *Failure, an *engine.RefusalError, or an error wrapping
	// harness.ErrNoMatch.
	Run func(ctx context.Context, c *Conv) error
}

// All lists the scenarios in matrix column order.
func All() []Scenario {
	return []Scenario{carriers, missingEcho, strictSchema, fallback, signedRoundtrip, resume, compaction, branch, flags}
}

// ByName returns the scenario with the given name.
func ByName(name string) (Scenario, bool) {
	for _, s := range All() {
		if s.Name == name {
			return s, true
		}
	}
	return Scenario{}, false
}

func always(matrix.Target, *providers.Profile) (bool, string) { return true, "" }

// refusesFieldFor reports whether the profile refuses a standard carrier
// on an assistant message for the target's model.
func refusesFieldFor(t matrix.Target, p *providers.Profile, kind string, fields ...string) bool {
	for _, r := range p.Rules {
		if r.When.Kind == kind && slices.Contains(fields, r.When.Field) && r.When.AppliesTo(t.Route.Model) {
			return true
		}
	}
	return false
}

var standardCarriers = []string{"reasoning_content", "reasoning", "reasoning_details"}

func chatOnly(t matrix.Target) (bool, string) {
	if t.Route.APIMode != "chat" {
		return false, "the " + string(t.Route.APIMode) + " dialect replays native blocks, not chat carriers"
	}
	return true, ""
}
