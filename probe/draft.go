package probe

import (
	"fmt"

	"github.com/replaycheck/replaycheck/providers"
	"go.yaml.in/yaml/v3"
)

// draft is the provider profile the battery supports. Every rule quotes
// the recorded body verbatim, names the variants that show it in its note,
// and is marked unconfirmed: a probe is evidence from one run, not
// documentation.
func (in *inference) draft() *providers.Profile {
	res := in.res
	r := res.Target.Route
	source := fmt.Sprintf("replaycheck probe of %s on %s", r.Host(), in.opts.Date)
	p := &providers.Profile{
		Name: res.Target.ID, Version: 1, Title: r.Provider + " (probed)", APIMode: string(r.APIMode),
		Hosts: []string{r.Host()}, Confidence: providers.ConfidenceUnconfirmed,
		ConfidenceNote: fmt.Sprintf("inferred by replaycheck probe from %d recorded requests (%s); confirm against the provider's documentation", res.Interactions, res.Provenance),
		Sources:        []string{source},
		Emits:          in.emits,
		Reads:          in.reads,
	}
	p.Emits.Source = source
	if p.Emits.Fields == nil {
		p.Emits.Fields = []string{}
	}
	if p.Reads == nil {
		p.Reads = []string{}
	}
	if in.signing != nil {
		s := *in.signing
		s.Source = source
		p.Signing = &s
	}
	for _, rule := range in.rules {
		rule.Source, rule.Confidence = source, providers.ConfidenceUnconfirmed
		p.Rules = append(p.Rules, rule)
	}
	return p
}

// ProfileYAML renders the draft profile as providers/<id>.yaml.
func (res *Result) ProfileYAML() (string, error) {
	b, err := yaml.Marshal(res.Draft)
	return string(b), err
}
