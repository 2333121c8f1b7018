package providers

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Serves declares which model ids the profile's hosts serve: a route to
// one of the hosts whose model id contains none of Models and is none of
// IDs (lower-cased) reaches no model there. The declaration speaks for the hosts in the
// profile's api mode, and in every api mode that no profile at the same
// host speaks (DeepSeek's chat endpoint refuses a model id it does not
// know, while its Anthropic-compatible endpoint maps any id to one of its
// models, so each mode's profile answers for itself). It never speaks for
// a provider id: those are labels a user picks.
//
// `replaycheck mutate` uses it to tell a route nobody can reach from a
// real survivor; `lint` holds every target and alias against it.
type Serves struct {
	// Models are lower-case substrings, one of which every model id the
	// hosts serve contains.
	Models []string `yaml:"models,omitempty"`
	// IDs close the list: the lower-case model ids the hosts answer, every
	// alias and dated form included. Anthropic's list also speaks for
	// every Claude platform: no platform serves a Claude version it lacks
	// (see mutate's served).
	IDs []string `yaml:"ids,omitempty"`
	// Hosts close the profile's hosts: the exact hostnames, each one of the
	// profile's hosts or a subdomain of one, at which its API is served.
	// Without it a profile speaks for its hosts and every subdomain; with
	// it a route to any other subdomain reaches nothing (see
	// [Profile.ServesHost]).
	Hosts []string `yaml:"hosts,omitempty"`
	// Paths close the base-URL paths of the profile's own api mode: runs
	// of whole path segments with a leading slash ("/publishers/anthropic"),
	// as a route table's paths are, one of which the base URL of every
	// route of that mode to the hosts contains. They speak for no other
	// mode: a Foundry resource serves Claude under /anthropic and other
	// models elsewhere (see [Profile.ServesPath]).
	Paths []string `yaml:"paths,omitempty"`
	// Source cites the provider's published model list (and, for Hosts,
	// its published base URLs).
	Source string `yaml:"source"`
	// Confidence is confirmed when Source lists the models, partial when
	// part of the list is inferred (Note says which). An unconfirmed
	// declaration is refused: it would prune routes on an assumption.
	Confidence string `yaml:"confidence"`
	// Note quotes what the declaration relies on.
	Note string `yaml:"note"`
}

// ServesModel reports whether the profile's declaration lets its hosts
// serve model: true when the profile declares no model (nothing, or only
// its hosts), or when the lower-cased model id contains one of the
// declared substrings or is one of the declared ids.
func (p *Profile) ServesModel(model string) bool {
	if p == nil || p.Serves == nil || len(p.Serves.Models)+len(p.Serves.IDs) == 0 {
		return true
	}
	s := p.Serves
	return (len(s.Models) > 0 && modelIn(model, s.Models, true)) || slices.Contains(s.IDs, strings.ToLower(model))
}

// Described says what the declaration lets its hosts serve, as a report
// quotes it: "model ids containing deepseek", "the 42 model ids it lists".
func (s *Serves) Described() string {
	var parts []string
	if len(s.Models) > 0 {
		parts = append(parts, "model ids containing "+strings.Join(s.Models, " or "))
	}
	if len(s.IDs) > 0 {
		parts = append(parts, fmt.Sprintf("the %d model ids it lists", len(s.IDs)))
	}
	return strings.Join(parts, " and ")
}

// issues checks the declaration: models that are lower-case substrings, a
// source, a confidence that is not unconfirmed, and the note quoting what
// it relies on.
func (s *Serves) issues() []*ValidationError {
	path := at(nil, "serves")
	var out []*ValidationError
	if len(s.Models) == 0 && len(s.IDs) == 0 && len(s.Hosts) == 0 && len(s.Paths) == 0 {
		out = append(out, issue(at(path, "models"), "serves: models or ids needs at least one model id (substring), hosts one host, or paths one path"))
	}
	out = append(out, s.pathIssues(path)...)
	for i, m := range s.Models {
		if strings.TrimSpace(m) == "" || strings.ToLower(m) != m {
			out = append(out, issue(at(path, "models", strconv.Itoa(i)), "serves: model %q is not a lower-case id substring", m))
		}
	}
	seen := map[string]bool{}
	for i, id := range s.IDs {
		switch {
		case strings.TrimSpace(id) != id || id == "" || strings.ToLower(id) != id:
			out = append(out, issue(at(path, "ids", strconv.Itoa(i)), "serves: id %q is not a lower-case model id", id))
		case seen[id]:
			out = append(out, issue(at(path, "ids", strconv.Itoa(i)), "serves: id %q is listed twice", id))
		}
		seen[id] = true
	}
	if strings.TrimSpace(s.Source) == "" {
		out = append(out, issue(at(path, "source"), "serves: source is required (the provider's published model list)"))
	}
	if strings.TrimSpace(s.Note) == "" {
		out = append(out, issue(at(path, "note"), "serves: note is required (quote what the declaration relies on)"))
	}
	if s.Confidence == ConfidenceUnconfirmed {
		return append(out, issue(at(path, "confidence"), "serves: confidence unconfirmed would prune routes on an assumption: leave the declaration out"))
	}
	return append(out, confidenceIssues(at(path, "confidence"), "serves: ", s.Confidence, s.Note, "note")...)
}
