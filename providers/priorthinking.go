package providers

import (
	"strconv"
	"strings"
)

// PriorThinking says which models of an Anthropic Messages profile read
// thinking replayed from completed earlier turns. The API validates every
// replayed block's signature either way (openclaw/openclaw#99382), but a
// model that keeps only the last assistant turn's thinking drops earlier
// turns' blocks from its context: replaying them gains nothing and risks a
// refusal for a signature the route cannot vouch for.
type PriorThinking struct {
	// LastTurnOnly lists the models (lower-case id substrings) that keep
	// only the last assistant turn's thinking; every other model of the
	// profile keeps all of it.
	LastTurnOnly []string `yaml:"last_turn_only"`
	// Source cites where the provider documents it.
	Source string `yaml:"source"`
	// Confidence is confirmed when Source states it for these models.
	Confidence string `yaml:"confidence"`
	// Note explains what is assumed.
	Note string `yaml:"note,omitempty"`
}

// KeepsOnlyLastTurnThinking reports whether the profile documents model
// as one that reads no thinking of completed earlier turns. A profile that
// says nothing about it, or no profile, answers false.
func (p *Profile) KeepsOnlyLastTurnThinking(model string) bool {
	return p != nil && p.PriorThinking != nil && modelIn(model, p.PriorThinking.LastTurnOnly, false)
}

// issues checks the declaration: on an Anthropic profile, with models, a
// source and the note its confidence needs.
func (pt *PriorThinking) issues(mode string) []*ValidationError {
	path := at(nil, "prior_thinking")
	var out []*ValidationError
	if mode != APIModeAnthropic {
		out = append(out, issue(path, "prior_thinking: only anthropic profiles declare it, this one speaks %s", mode))
	}
	if len(pt.LastTurnOnly) == 0 {
		out = append(out, issue(at(path, "last_turn_only"), "prior_thinking: last_turn_only needs at least one model"))
	}
	for i, m := range pt.LastTurnOnly {
		if strings.TrimSpace(m) == "" || strings.ToLower(m) != m {
			out = append(out, issue(at(path, "last_turn_only", strconv.Itoa(i)), "prior_thinking: model %q is not a lower-case id substring", m))
		}
	}
	if strings.TrimSpace(pt.Source) == "" {
		out = append(out, issue(at(path, "source"), "prior_thinking: source is required"))
	}
	return append(out, confidenceIssues(at(path, "confidence"), "prior_thinking: ", pt.Confidence, pt.Note, "note")...)
}
