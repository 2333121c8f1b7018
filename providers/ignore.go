package providers

// An Ignore declares one difference between two request bodies that the
// provider is documented not to care about: a request that differs from a
// recorded one only in declared differences gets the recorded answer, so an
// implementation that shapes its messages another harmless way is still
// judged against the cassette. Each declaration cites its source, as rules
// do.
type Ignore struct {
	// Difference is one of the Difference* constants.
	Difference string `yaml:"difference"`
	// Source cites the documentation or report showing the difference is
	// harmless for this provider.
	Source string `yaml:"source"`
	// Confidence is confirmed when Source shows this exact behaviour, and
	// partial or unconfirmed otherwise (Note says what is assumed).
	Confidence string `yaml:"confidence"`
	// Note explains assumptions.
	Note string `yaml:"note,omitempty"`
}

// Differences a profile may declare ignorable ([Ignore.Difference]). Key
// order and whitespace are never among them: every matching mode compares
// canonical JSON, since JSON objects are unordered (RFC 8259 §4).
const (
	// DifferenceToolResultName: the name key of a role "tool" message,
	// present or absent.
	DifferenceToolResultName = "tool_result_name"
	// DifferenceToolCallContent: the content of an assistant message with
	// tool calls is "", null or absent.
	DifferenceToolCallContent = "tool_call_content"
	// DifferenceToolCallType: the type of a tool call is "function" or
	// absent.
	DifferenceToolCallType = "tool_call_type"
)

// Differences returns the differences a profile may declare ignorable.
func Differences() []string { return append([]string(nil), differences...) }

var differences = []string{DifferenceToolResultName, DifferenceToolCallContent, DifferenceToolCallType}

// Ignores reports whether the profile declares difference d ignorable.
func (p *Profile) Ignores(d string) (Ignore, bool) {
	for _, ig := range p.Ignore {
		if ig.Difference == d {
			return ig, true
		}
	}
	return Ignore{}, false
}
