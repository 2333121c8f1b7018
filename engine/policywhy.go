package engine

import (
	"fmt"
	"strings"
)

// Why is [PriorThinking.Keeps] with its reason, in the terms of the
// capability table (matrix.yaml anthropic.prior_thinking): the generation
// that never keeps, the family and version parsed and the version it keeps
// from, or the id that names no Claude model.
func (p PriorThinking) Why(model string) (bool, string) {
	v := p.verdict(model)
	switch {
	case !v.claude:
		return false, fmt.Sprintf("%s is no Claude id: only Claude models keep earlier turns' thinking", model)
	case v.never:
		return false, fmt.Sprintf("%s is of a generation that never keeps it (never_generations %s)", model, strings.Join(p.NeverGenerations, ", "))
	case !v.parsed:
		return true, fmt.Sprintf("%s is a Claude id whose family and version do not parse: unparsed Claude ids keep it", model)
	}
	whose := "default_keeps_from"
	if v.family.KeepsFrom != nil {
		whose = v.family.Name + " keeps_from"
	}
	verb := "keeps"
	if !v.keeps {
		verb = "does not keep"
	}
	return v.keeps, fmt.Sprintf("%s is %s %d.%d, and %s is %d.%d: it %s earlier turns' thinking", model, v.family.Name, v.version.Major, v.version.Minor, whose, v.from.Major, v.from.Minor, verb)
}

// Why is [AnthropicPolicy.Decide] with the reason for its prior-thinking
// verdict: the route class that matched and its rule, and for a
// capability route the model's place in the capability table.
func (p AnthropicPolicy) Why(baseURL, model string) (AnthropicReplay, string) {
	d := p.Decide(baseURL, model)
	for _, r := range p.Routes {
		if !r.Match.Matches(baseURL, model) {
			continue
		}
		switch {
		case r.Replay == ReplayStripped:
			return d, "route class " + r.ID + " strips thinking"
		case r.PriorThinking == PriorAlways:
			return d, "route class " + r.ID + " replays earlier turns' thinking to every model (prior_thinking: always)"
		}
		_, why := p.PriorThinking.Why(model)
		return d, "route class " + r.ID + " follows the model's capability: " + why
	}
	return d, "no route class matches: an unknown relay gets no thinking"
}
