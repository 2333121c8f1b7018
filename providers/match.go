package providers

import "strings"

// AppliesTo reports whether the condition applies to model: Models, when
// not empty, must name a substring of the lower-cased model id, and
// ExceptModels must not.
func (c Condition) AppliesTo(model string) bool {
	return modelIn(model, c.Models, true) && !modelIn(model, c.ExceptModels, false)
}

// AppliesTo reports whether the flag applies to model: Models, when not
// empty, must name a substring of the lower-cased model id.
func (f Flag) AppliesTo(model string) bool {
	return modelIn(model, f.Models, true)
}

// modelIn reports whether one of subs is a substring of the lower-cased
// model id; an empty list answers empty.
func modelIn(model string, subs []string, empty bool) bool {
	if len(subs) == 0 {
		return empty
	}
	m := strings.ToLower(model)
	for _, s := range subs {
		if s != "" && strings.Contains(m, strings.ToLower(s)) {
			return true
		}
	}
	return false
}
