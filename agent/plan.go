package agent

import (
	"slices"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/sim"
)

// standardCarriers are the OpenAI-style assistant reasoning keys.
var standardCarriers = []string{"reasoning_content", "reasoning", "reasoning_details"}

// A plan is how one scenario is played to an agent: the directive of the
// simulator's answers and the check of an accepted judged request.
type plan struct {
	directive sim.Directive
	// check judges an accepted tool-result request beyond its acceptance;
	// nil when acceptance is the whole verdict.
	check func(j *judgement) verdict
}

// plans are the scenarios an agent is judged on without its internals.
var plans = map[string]plan{
	"carriers":         {check: checkCarriers},
	"missing-echo":     {directive: sim.Directive{NoReasoning: true}},
	"strict-schema":    {directive: sim.Directive{Carriers: standardCarriers}},
	"fallback":         {}, // directive: the first carrier the profile refuses (planFor)
	"signed-roundtrip": {check: checkSigned},
	"resume":           {}, // judged against the live session (judgement.resume)
	"compaction":       {}, // judged against the live session (judgement.compaction)
	"flags":            {check: checkFlags},
}

// notPlayed says why the scenarios no agent run plays are n/a.
var notPlayed = map[string]string{
	"resume":     "an agent's session is resumed by its own command: give it with --resume-cmd",
	"compaction": "an agent compacts by its own command: give it with --compact-cmd",
	"branch":     "branching a session needs the agent's internals: run its replay code through the engine protocol (run --engine)",
}

// planFor is the plan of scenario name on target t: fallback's answer
// carries the first standard carrier the provider refuses, so a refusal
// teaches one field and one retry without it must be accepted.
func planFor(name string, t matrix.Target, p *providers.Profile) plan {
	pl := plans[name]
	if name == "fallback" {
		for _, r := range p.Rules {
			if r.When.Kind == providers.ConditionAssistantFieldPresent && slices.Contains(standardCarriers, r.When.Field) && r.When.AppliesTo(t.Route.Model) {
				pl.directive.Carriers = []string{r.When.Field}
				break
			}
		}
	}
	return pl
}

// applies reports whether scenario name is played to an agent on target t
// with profile p, and why not: the scenario must apply to the target as
// `run` decides, and be one an agent run plays (resume and compaction only
// with the agent's own command that continues the session).
func applies(name string, t matrix.Target, p *providers.Profile, continued bool) (bool, string) {
	if why, ok := notPlayed[name]; ok && !continued {
		return false, why
	}
	sc, ok := scenario.ByName(name)
	if !ok {
		return false, "unknown scenario"
	}
	if ok, why := sc.Applies(t, p); !ok {
		return false, why
	}
	if name == "fallback" && !refusesStandardCarrier(t, p) {
		return false, "an agent run plays fallback where the provider refuses a standard carrier the agent may send back (a chat route with a strict schema); this one refuses none"
	}
	return true, ""
}

// refusesStandardCarrier reports whether the profile refuses a standard
// carrier on an assistant message of a chat route.
func refusesStandardCarrier(t matrix.Target, p *providers.Profile) bool {
	if t.Route.APIMode != "chat" {
		return false
	}
	return slices.ContainsFunc(p.Rules, func(r providers.Rule) bool {
		return r.When.Kind == providers.ConditionAssistantFieldPresent && slices.Contains(standardCarriers, r.When.Field) && r.When.AppliesTo(t.Route.Model)
	})
}
