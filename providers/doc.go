// Package providers holds the provider profiles: each provider's documented
// behaviour towards reasoning replay, written from public sources and kept
// independent of the route table (matrix.yaml), so the table can be checked
// against it.
//
// # Profiles
//
// A profile (providers/<name>.yaml, decoded into [Profile]) says where a
// provider's responses carry reasoning ([Emits]), which assistant-message
// carriers it reads back on replay ([Profile.Reads]), which requests it
// refuses and with what verbatim error body ([Rule]), which request flags it
// honours ([Flag]), and how it signs what it emits ([Signing]). Every rule
// cites its source and states its confidence; assumptions say so in a note.
//
// # Loading
//
// [Load], [LoadDir] and [Embedded] decode and validate profiles; every error
// is a [ValidationError] naming the file and line:
//
//	providers/deepseek.yaml:12: rule "x": unknown condition kind "y"
//
// [Profile.Validate] runs the same checks on a profile built in memory.
//
// # Conditions
//
// A rule's [Condition] comes from a fixed vocabulary the simulator
// implements (the Condition* constants); [Condition.AppliesTo] and
// [Flag.AppliesTo] apply the model restrictions, and [Profile.RenderBody]
// fills a body's placeholders ({index}, {field}, {path}, {request_id}).
//
// The profiles are the data behind the loopback simulator and therefore
// behind every simulated cassette; README.md in this directory lists, per
// provider, which rules are confirmed by a cited source and which are
// assumptions.
package providers
