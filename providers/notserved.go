package providers

// NotServedPaths returns the path suffixes p documents its endpoint not
// serving (its path_not_served rules). The endpoint's 404 to a request at
// one of them is the provider's answer to a request of another platform's
// shape, sent on purpose, not a wrong base URL: a recording keeps it.
func (p *Profile) NotServedPaths() []string {
	if p == nil {
		return nil
	}
	var out []string
	for _, r := range p.Rules {
		if r.When.Kind == ConditionPathNotServed {
			out = append(out, r.When.Field)
		}
	}
	return out
}
