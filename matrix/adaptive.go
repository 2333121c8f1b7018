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
	fams, err := w.families(m["families"], "adaptive_thinking", "from")
	for _, f := range fams {
		a.Families = append(a.Families, engine.AdaptiveFamily{Name: f.name, From: f.from})
	}
	return a, err
}
