package providers

// A Profile is one provider's documented behaviour towards reasoning replay:
// what its responses carry, which assistant-message keys it reads or refuses,
// which request flags it honours, and how it signs what it emits. Profiles are
// written from public provider facts (research/provider-facts.md); they are
// never derived from matrix.yaml, so they stay an independent truth the route
// table is checked against.
//
// A profile is the data behind the loopback simulator (`replaycheck serve`)
// and therefore behind every simulated cassette.
type Profile struct {
	// Name is the profile's id and its file stem (providers/<name>.yaml).
	Name string `yaml:"name"`
	// Version increases whenever a rule changes; simulated cassettes record
	// the name and version they were generated from.
	Version int `yaml:"version"`
	// Title is a human name ("DeepSeek chat completions").
	Title string `yaml:"title"`
	// APIMode is the wire dialect: chat, anthropic, bedrock-converse,
	// gemini or responses.
	APIMode string `yaml:"api_mode"`
	// Hosts are the public hosts the profile describes.
	Hosts []string `yaml:"hosts"`
	// HostPatterns describe hostnames the provider numbers by region or
	// resource, each a whole hostname with "*" standing for part of one
	// label, as the route table's host_patterns are
	// ("*-aiplatform.googleapis.com": every Vertex AI region). A profile
	// speaks for a hostname a pattern matches as for one of its Hosts.
	HostPatterns []string `yaml:"host_patterns,omitempty"`
	// Confidence is confirmed, partial or unconfirmed for the profile as a
	// whole; ConfidenceNote says why when it is not confirmed.
	Confidence     string `yaml:"confidence"`
	ConfidenceNote string `yaml:"confidence_note,omitempty"`
	// Sources lists the public sources the profile was written from.
	Sources []string `yaml:"sources"`

	// Emits describes where reasoning sits in this provider's responses.
	Emits Emits `yaml:"emits"`
	// Reads lists the assistant-message carriers the provider accepts and
	// feeds back to the model on replay (reasoning_content, reasoning,
	// reasoning_details, reasoning_text, reasoning_opaque, extra_content,
	// thinking, redacted_thinking, reasoningContent, thoughtSignature).
	// A key that is neither read nor refused by a rule is accepted and ignored.
	Reads []string `yaml:"reads"`
	// Rules are the refusals the provider is documented to make, in the
	// order the simulator checks them; the first rule that fires answers.
	Rules []Rule `yaml:"rules"`
	// Flags are request flags the provider honours.
	Flags []Flag `yaml:"flags,omitempty"`
	// GenerationFailures are the errors the provider answers when the
	// model's own output fails it (a tool call that does not match its
	// schema…). No request shape predicts them, so the simulator never
	// answers them; a recording of one is held against this list, not the
	// rules.
	GenerationFailures []GenerationFailure `yaml:"generation_failures,omitempty"`
	// Signing says how the provider signs or encrypts the reasoning it emits;
	// nil for providers whose reasoning is plain text.
	Signing *Signing `yaml:"signing,omitempty"`
	// Ignore lists the request differences the provider does not care
	// about (chat profiles only); see [Ignore].
	Ignore []Ignore `yaml:"ignore,omitempty"`
	// PriorThinking says which models read thinking replayed from
	// completed earlier turns (anthropic profiles only); nil when the
	// profile says nothing about it.
	PriorThinking *PriorThinking `yaml:"prior_thinking,omitempty"`
	// Serves declares which model ids the profile's hosts serve; nil when
	// the profile says nothing about it (see [Serves]).
	Serves *Serves `yaml:"serves,omitempty"`
}

// Emits describes the reasoning carriers of a response, whole and streamed.
type Emits struct {
	// Fields are the response fields that carry reasoning, named as on the
	// wire (reasoning_content, reasoning, reasoning_details, reasoning_text,
	// reasoning_opaque, extra_content, thinking, redacted_thinking,
	// reasoningContent, thoughtSignature).
	Fields []string `yaml:"fields"`
	// DetailsFormat is the format tag of emitted reasoning_details items
	// (anthropic-claude-v1, openai-responses-v1, MiniMax-response-v1…).
	DetailsFormat string `yaml:"details_format,omitempty"`
	// Stream is the streaming framing: sse, aws-eventstream or none.
	Stream string `yaml:"stream"`
	// Source cites where the response shape is documented or observed.
	Source string `yaml:"source"`
	// WhenThinking says the fields are emitted only when the request
	// enables thinking (Bedrock Converse's
	// additionalModelRequestFields.thinking, enabled or adaptive): Claude
	// thinks only when asked, so a request without it is answered with no
	// reasoning at all. Bedrock Converse profiles only.
	WhenThinking bool `yaml:"when_thinking,omitempty"`
	// Redacted says every reasoning block is a sealed
	// reasoningContent.redactedContent blob, never readable text (OpenAI's
	// GPT models on Bedrock Converse). Bedrock Converse profiles only.
	Redacted bool `yaml:"redacted,omitempty"`
}

// A Rule is one documented refusal: when its condition holds for a request,
// the provider answers Status with Body.
type Rule struct {
	// ID names the rule within the profile (kebab-case).
	ID string `yaml:"id"`
	// When is the condition under which the provider refuses.
	When Condition `yaml:"when"`
	// Status is the HTTP status of the refusal (400, 422…).
	Status int `yaml:"status"`
	// ContentType of the refusal body; application/json when empty.
	ContentType string `yaml:"content_type,omitempty"`
	// Body is the provider's error body, verbatim as observed, except for
	// the placeholders {index} (0-based message index), {field} (the key in
	// play), {path} (the JSON path of the offending value), {request_id},
	// and for Responses items {item}, {item_type} and {ref}.
	Body string `yaml:"body"`
	// StreamFraming is "sse" when the provider frames this error as an SSE
	// data line on streaming requests (MiMo does), else empty.
	StreamFraming string `yaml:"stream_framing,omitempty"`
	// Source cites the public report or document the body was taken from.
	Source string `yaml:"source"`
	// Confidence is confirmed when Source shows this exact behaviour, and
	// unconfirmed when the rule is an assumption (Note says which).
	Confidence string `yaml:"confidence"`
	// Note explains assumptions and wording drift.
	Note string `yaml:"note,omitempty"`
	// From and Until are the days the rule is known to hold, as
	// YYYY-MM-DD: from From (inclusive; empty: as far back as is known)
	// to Until (exclusive; empty: it still holds). A provider that changed
	// a rule keeps both versions, each with its days, so a recording is
	// held against the rule of its own day ([Rule.HoldsOn]); which models
	// a rule holds for is its condition's Models and ExceptModels.
	From  string `yaml:"from,omitempty"`
	Until string `yaml:"until,omitempty"`
}

// A GenerationFailure is one error a provider answers about the model's
// output rather than the request: the same request may succeed on retry.
type GenerationFailure struct {
	// ID names the failure within the profile (kebab-case).
	ID string `yaml:"id"`
	// Status is its HTTP status.
	Status int `yaml:"status"`
	// Code is the error code the body carries at error.code, which is
	// what a recorded body is recognised by.
	Code string `yaml:"code"`
	// Body is an observed body, verbatim.
	Body string `yaml:"body"`
	// Source cites where the body was observed.
	Source string `yaml:"source"`
	// Confidence is confirmed when Source shows this exact body.
	Confidence string `yaml:"confidence"`
	// Note explains what fails and what is assumed.
	Note string `yaml:"note,omitempty"`
}

// HoldsOn reports whether the rule held on day (YYYY-MM-DD). An unknown
// day ("") is today: the rules that still hold, those without Until.
func (r Rule) HoldsOn(day string) bool {
	if day == "" {
		return r.Until == ""
	}
	return (r.From == "" || r.From <= day) && (r.Until == "" || day < r.Until)
}

// A Condition is a predicate over a request, from a fixed vocabulary the
// simulator implements. Kind is one of the Condition* constants.
type Condition struct {
	Kind string `yaml:"kind"`
	// Field is the key the condition is about (a carrier, a top-level
	// request key, or a signed field such as thinking.signature).
	Field string `yaml:"field,omitempty"`
	// BlankIsMissing makes "" (and, when WhitespaceIsMissing, " ") count as
	// a missing value for ConditionToolTurnFieldMissing.
	BlankIsMissing      bool `yaml:"blank_is_missing,omitempty"`
	WhitespaceIsMissing bool `yaml:"whitespace_is_missing,omitempty"`
	// Models restricts the condition to models whose lower-cased id
	// contains one of these substrings; empty means every model.
	Models []string `yaml:"models,omitempty"`
	// ExceptModels exempts models whose lower-cased id contains one of
	// these substrings, checked after Models (Groq refuses an assistant
	// `reasoning` key except on gpt-oss models). [Condition.AppliesTo]
	// applies both lists.
	ExceptModels []string `yaml:"except_models,omitempty"`
	// Values restricts ConditionTopLevelFieldPresent to a field holding
	// one of these values (compared as JSON scalars' text): Anthropic
	// refuses an effort level a model does not support, not the key.
	Values []string `yaml:"values,omitempty"`
	// ExceptValues restricts ConditionTopLevelFieldPresent to a field
	// holding a value other than these: Z.ai and Moonshot refuse a
	// thinking.type that is neither enabled nor disabled.
	ExceptValues []string `yaml:"except_values,omitempty"`
}

// Condition kinds.
const (
	// ConditionAssistantFieldPresent: some assistant message carries Field
	// (any value). Strict schemas refuse unknown keys this way.
	ConditionAssistantFieldPresent = "assistant_field_present"
	// ConditionToolTurnFieldMissing: some assistant message with tool calls
	// lacks Field (or holds a blank value, per BlankIsMissing).
	ConditionToolTurnFieldMissing = "tool_turn_field_missing"
	// ConditionTopLevelFieldPresent: the request body carries top-level Field.
	ConditionTopLevelFieldPresent = "top_level_field_present"
	// ConditionSignatureInvalid: a signed carrier (Field) is present but its
	// signature does not verify: tampered, or issued by another provider.
	ConditionSignatureInvalid = "signature_invalid"
	// ConditionSignatureMissing: a carrier that must be signed (Field) is
	// replayed without its signature, or a current-turn function call lacks
	// its thought signature.
	ConditionSignatureMissing = "signature_missing"
	// ConditionSealedBlobForeign: a replayed encrypted/redacted blob was
	// sealed for another region or model.
	ConditionSealedBlobForeign = "sealed_blob_foreign"
	// ConditionReasoningWithoutFollower (responses): a reasoning item the
	// provider issued is not directly followed by the item it led to.
	ConditionReasoningWithoutFollower = "reasoning_without_follower"
	// ConditionItemWithoutReasoning (responses): an item sent with the id
	// the provider issued it under comes without the reasoning item it
	// was issued with, right before it.
	ConditionItemWithoutReasoning = "item_without_reasoning"
	// ConditionToolOutputMissing (responses): a function_call is not
	// answered by its function_call_output before the next message.
	ConditionToolOutputMissing = "tool_output_missing"
	// ConditionPathNotServed: the request's URL path ends with Field, a
	// path the endpoint serves no model call on (a request of another
	// platform's shape: /v1/messages at Bedrock's or Vertex's host).
	ConditionPathNotServed = "path_not_served"
)

// A Flag is a request flag the provider honours.
type Flag struct {
	// Path is the request-body path (dot separated, as in sjson).
	Path string `yaml:"path"`
	// Value is the value that turns the behaviour on.
	Value any `yaml:"value"`
	// Models restricts the flag to models whose lower-cased id contains
	// one of these substrings; empty means every model.
	Models []string `yaml:"models,omitempty"`
	// Effect says what the flag does; "keeps-prior-reasoning" means prior
	// turns' reasoning is read only when the flag is set.
	Effect string `yaml:"effect"`
	// Source cites the documentation of the flag.
	Source string `yaml:"source"`
}

// Signing describes how a provider protects the reasoning it emits.
type Signing struct {
	// Scheme is thinking-signature (Anthropic-style signed blocks),
	// redacted-data, thought-signature (Gemini), reasoning-opaque (Copilot),
	// encrypted-details (reasoning.encrypted items) or encrypted-content
	// (Responses reasoning items).
	Scheme string `yaml:"scheme"`
	// Fields are the signed or encrypted fields, named as on the wire.
	Fields []string `yaml:"fields"`
	// Source cites the documentation of the scheme.
	Source string `yaml:"source"`
}
