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
	lm := strings.ToLower(model)
	if !strings.Contains(lm, "claude") {
		return false, fmt.Sprintf("%s is no Claude id: only Claude models keep earlier turns' thinking", model)
	}
	for rest := lm; ; {
		i := strings.Index(rest, "claude")
		if i < 0 {
			break
		}
		rest = rest[i+len("claude"):]
		if p.neverGeneration(rest) {
			return false, fmt.Sprintf("%s is of a generation that never keeps it (never_generations %s)", model, strings.Join(p.NeverGenerations, ", "))
		}
	}
	for rest := lm; ; {
		i := strings.Index(rest, "claude")
		if i < 0 {
			return true, fmt.Sprintf("%s is a Claude id whose family and version do not parse: unparsed Claude ids keep it", model)
		}
		rest = rest[i+len("claude"):]
		if fam, v, ok := p.parse(rest); ok {
			from, whose := p.DefaultKeepsFrom, "default_keeps_from"
			if fam.KeepsFrom != nil {
				from, whose = *fam.KeepsFrom, fam.Name+" keeps_from"
			}
			keeps := !v.Less(from)
			verb := "keeps"
			if !keeps {
				verb = "does not keep"
			}
			return keeps, fmt.Sprintf("%s is %s %d.%d, and %s is %d.%d: it %s earlier turns' thinking", model, fam.Name, v.Major, v.Minor, whose, from.Major, from.Minor, verb)
		}
	}
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
