package matrix

import (
	"github.com/replaycheck/replaycheck/engine"
	"go.yaml.in/yaml/v3"
)

// adaptiveThinking reads anthropic.adaptive_thinking: the Claude families
// (and from which version) that take only adaptive thinking.
func (w walker) adaptiveThinking(n *yaml.Node) (engine.AdaptiveThinking, error) {
	var a engine.AdaptiveThinking
	m, err := w.mapping(n, "anthropic adaptive_thinking", "families")
	if err != nil {
		return a, err
	}
	fams, err := w.sequence(m["families"], "adaptive_thinking families")
	if err != nil {
		return a, err
	}
	seen := map[string]bool{}
	for _, it := range fams {
		fm, err := w.mapping(it, "adaptive_thinking family", "name", "from")
		if err != nil {
			return a, err
		}
		var f engine.AdaptiveFamily
		if f.Name, err = w.str(fm["name"], "adaptive_thinking family name"); err != nil {
			return a, err
		}
		if !familyName.MatchString(f.Name) {
			return a, w.errf(it, "adaptive_thinking family: name %q must be lower-case letters", f.Name)
		}
		if seen[f.Name] {
			return a, w.errf(fm["name"], "adaptive_thinking family: duplicate name %q", f.Name)
		}
		seen[f.Name] = true
		if fm["from"] != nil {
			v, err := w.version(fm["from"], "adaptive_thinking family "+f.Name+" from")
			if err != nil {
				return a, err
			}
			f.From = &v
		}
		a.Families = append(a.Families, f)
	}
	return a, nil
}
