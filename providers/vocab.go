package providers

// API modes a profile can speak ([Profile.APIMode]).
const (
	APIModeChat            = "chat"
	APIModeAnthropic       = "anthropic"
	APIModeBedrockConverse = "bedrock-converse"
	APIModeGemini          = "gemini"
	APIModeResponses       = "responses"
)

// Confidence levels of a profile ([Profile.Confidence]) and of a rule
// ([Rule.Confidence]). Partial means the mechanism is evidenced but part of
// the wire text (an envelope, a field name) is extrapolated; the note says
// which part.
const (
	ConfidenceConfirmed   = "confirmed"
	ConfidencePartial     = "partial"
	ConfidenceUnconfirmed = "unconfirmed"
)

// Stream framings of a response ([Emits.Stream]) and of a refusal
// ([Rule.StreamFraming], where only StreamSSE is meaningful).
const (
	StreamSSE            = "sse"
	StreamAWSEventStream = "aws-eventstream"
	StreamNone           = "none"
)

// Signing schemes ([Signing.Scheme]).
const (
	SchemeThinkingSignature = "thinking-signature"
	SchemeRedactedData      = "redacted-data"
	SchemeThoughtSignature  = "thought-signature"
	SchemeReasoningOpaque   = "reasoning-opaque"
	SchemeEncryptedDetails  = "encrypted-details"
	// SchemeEncryptedContent is the Responses API's encrypted_content on
	// reasoning items, sealed by the issuing service.
	SchemeEncryptedContent = "encrypted-content"
)

// Flag effects ([Flag.Effect]).
const (
	// EffectKeepsPriorReasoning: prior turns' reasoning reaches the model
	// only when the flag is set (GLM clear_thinking, DashScope
	// preserve_thinking, Kimi thinking.keep).
	EffectKeepsPriorReasoning = "keeps-prior-reasoning"
	// EffectEnablesThinking: the flag turns thinking on; the keep flags of
	// GLM and Kimi are documented to travel next to it.
	EffectEnablesThinking = "enables-thinking"
)

// Placeholders a rule body may carry; [Profile.RenderBody] fills them.
const (
	// PlaceholderIndex is the 0-based index of the message in play.
	PlaceholderIndex = "{index}"
	// PlaceholderField is the key in play; it defaults to the rule's
	// condition field.
	PlaceholderField = "{field}"
	// PlaceholderPath is the dotted JSON path of the offending value or
	// content block in the request (messages.1.content.0).
	PlaceholderPath = "{path}"
	// PlaceholderRequestID is the per-request id; bodies keep the vendor's
	// own prefix around it (req_{request_id}).
	PlaceholderRequestID = "{request_id}"
	// PlaceholderItem is the Responses input item in play: its id (its
	// call_id when it has none), and for tool_output_missing the
	// function_call's call_id.
	PlaceholderItem = "{item}"
	// PlaceholderItemType is the type of the Responses input item in play
	// (function_call, message, reasoning).
	PlaceholderItemType = "{item_type}"
	// PlaceholderRef is the id of the item the item in play needs beside
	// it (the reasoning item a function_call or message came with).
	PlaceholderRef = "{ref}"
)

// Placeholders lists every placeholder a rule body may carry.
func Placeholders() []string {
	return []string{PlaceholderIndex, PlaceholderField, PlaceholderPath, PlaceholderRequestID, PlaceholderItem, PlaceholderItemType, PlaceholderRef}
}

// Carriers returns the reasoning carrier names a profile may list in
// [Emits.Fields] and [Profile.Reads], which are also the fields the
// message-level conditions (assistant_field_present,
// tool_turn_field_missing) may name. In chat mode, "thinking" is Mistral's
// thinking chunk inside the assistant content array; in anthropic mode it
// is the thinking content block. In responses mode, "reasoning" is a
// reasoning input item, and reasoning.summary, reasoning.content and
// reasoning.encrypted_content the parts of a reasoning output item.
func Carriers() []string { return append([]string(nil), carriers...) }

// SignedFields returns the signed or encrypted fields a [Signing] may list
// and the signature conditions (signature_invalid, signature_missing,
// sealed_blob_foreign) may name, each as a path below its message, block
// or part.
func SignedFields() []string { return append([]string(nil), signedFields...) }

var carriers = []string{
	"reasoning_content",
	"reasoning",
	"reasoning_details",
	"reasoning_text",
	"reasoning_opaque",
	"extra_content",
	"thinking",
	"redacted_thinking",
	"reasoningContent",
	"thoughtSignature",
	"reasoning.summary",
	"reasoning.content",
	"reasoning.encrypted_content",
}

var signedFields = []string{
	"thinking.signature",
	"redacted_thinking.data",
	"reasoningContent.reasoningText.signature",
	"reasoningContent.redactedContent",
	"thoughtSignature",
	"extra_content.google.thought_signature",
	"reasoning_opaque",
	"reasoning_details",
	"reasoning.encrypted_content",
	"reasoning.signature",
}

var (
	apiModes    = []string{APIModeChat, APIModeAnthropic, APIModeBedrockConverse, APIModeGemini, APIModeResponses}
	confidences = []string{ConfidenceConfirmed, ConfidencePartial, ConfidenceUnconfirmed}
	streams     = []string{StreamSSE, StreamAWSEventStream, StreamNone}
	schemes     = []string{SchemeThinkingSignature, SchemeRedactedData, SchemeThoughtSignature, SchemeReasoningOpaque, SchemeEncryptedDetails, SchemeEncryptedContent}
	effects     = []string{EffectKeepsPriorReasoning, EffectEnablesThinking}
	kinds       = []string{
		ConditionAssistantFieldPresent, ConditionToolTurnFieldMissing, ConditionTopLevelFieldPresent,
		ConditionSignatureInvalid, ConditionSignatureMissing, ConditionSealedBlobForeign,
		ConditionReasoningWithoutFollower, ConditionItemWithoutReasoning, ConditionToolOutputMissing,
		ConditionPathNotServed,
	}
)

// oneOf reports whether s is in list.
func oneOf(s string, list []string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
