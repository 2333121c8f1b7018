package engine

import "strings"

// AdaptiveThinkingConfig is the thinking configuration sent to a model
// that takes only adaptive thinking ([AdaptiveThinking.Only]), on the
// Messages API and in Bedrock Converse's additionalModelRequestFields:
// display "summarized" keeps the thinking text these models otherwise
// omit (they default to display "omitted": empty thinking, real
// signature; AAswordman/Operit PR 568).
const AdaptiveThinkingConfig = `{"type":"adaptive","display":"summarized"}`

// AdaptiveThinking is the table of Claude models that refuse manual
// thinking (`{"type":"enabled","budget_tokens":N}`) and take only
// `{"type":"adaptive"}` (matrix.yaml anthropic.adaptive_thinking). It
// applies to every route that asks a Claude model for thinking: the
// Messages API on every Anthropic platform and Bedrock Converse's
// additionalModelRequestFields.
type AdaptiveThinking struct {
	Families []AdaptiveFamily
}

// An AdaptiveFamily is a Claude family of the adaptive-thinking table.
type AdaptiveFamily struct {
	// Name is the family word in model ids ("opus").
	Name string
	// From is the first version that takes only adaptive thinking; nil
	// means every version of the family.
	From *ModelVersion
}

// Only reports whether the model takes only adaptive thinking: a Claude id
// whose family (with its version, as [PriorThinking] parses it) the table
// lists, at or after the family's From version; a family without From
// takes it for every id naming it, versioned or not
// (claude-mythos-preview). Ids that name no listed family, or a family
// with From whose version does not parse, get manual thinking.
func (a AdaptiveThinking) Only(model string) bool {
	if len(a.Families) == 0 {
		return false
	}
	lm := strings.ToLower(model)
	for rest := lm; ; {
		i := strings.Index(rest, "claude")
		if i < 0 {
			return false
		}
		rest = rest[i+len("claude"):]
		if k, v, ok := parseFamily(rest, len(a.Families), func(k int) string { return a.Families[k].Name }); ok {
			f := a.Families[k]
			return f.From == nil || !v.Less(*f.From)
		}
		if a.unversioned(rest) {
			return true
		}
	}
}

// unversioned reports whether s (what follows "claude") is a separator and
// the name of a family without From, ending there or at a separator.
func (a AdaptiveThinking) unversioned(s string) bool {
	if s == "" || !isSep(s[0]) {
		return false
	}
	s = s[1:]
	for _, f := range a.Families {
		if f.From == nil && strings.HasPrefix(s, f.Name) && (len(s) == len(f.Name) || isSep(s[len(f.Name)])) {
			return true
		}
	}
	return false
}
