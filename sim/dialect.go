package sim

import (
	"net/http"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/providers"
)

// dialect is one wire format: how its requests are read and checked and
// how its answers are written.
type dialect struct {
	mode string
	// supports reports whether check can evaluate a condition.
	supports func(c providers.Condition) error
	// check evaluates a message-level condition.
	check func(s *Simulator, q *request, c providers.Condition) (hit, bool)
	// read extracts the dialect-neutral view of the conversation.
	read func(s *Simulator, q *request) conversation
	// reply writes a generated 200 answer, whole or streamed.
	reply func(s *Simulator, w http.ResponseWriter, q *request, t *turn)
}

func dialectFor(mode string) (dialect, bool) {
	switch mode {
	case modeChat:
		return dialect{mode, chatSupports, chatCheck, chatRead, chatReply}, true
	case modeAnthropic:
		return dialect{mode, anthropicSupports, anthropicCheck, anthropicRead, anthropicReply}, true
	case modeConverse:
		return dialect{mode, converseSupports, converseCheck, converseRead, converseReply}, true
	case modeGemini:
		return dialect{mode, geminiSupports, geminiCheck, geminiRead, geminiReply}, true
	case modeResponses:
		return dialect{mode, responsesSupports, responsesCheck, responsesRead, responsesReply}, true
	}
	return dialect{}, false
}

// conversation is what the generator needs to know about a request.
type conversation struct {
	// lastUser is the index of the last real user turn (tool results do not
	// count), -1 when there is none.
	lastUser int
	// userText is that turn's text.
	userText string
	// endsWithUser is true when the last message is that user turn.
	endsWithUser bool
	// toolName is the first declared tool's name, "" without tools.
	toolName string
	hasTools bool
	// replayed lists the reasoning the request carries on assistant turns.
	replayed []replayed
}

// replayed is one piece of reasoning replayed on an assistant turn.
type replayed struct {
	// index is the assistant message index.
	index int
	// carrier is the field it rides in, named as in Profile.Reads.
	carrier string
	text    string
}

// emits reports whether the profile's responses carry field (exactly, or a
// sub-field of it such as reasoningContent.reasoningText).
func (s *Simulator) emits(field string) bool { return listed(s.p.Emits.Fields, field) }

// reads reports whether the provider feeds carrier back to the model.
func (s *Simulator) reads(carrier string) bool { return listed(s.p.Reads, carrier) }

// scheme is the signing scheme, "" for plain-text reasoning.
func (s *Simulator) scheme() string {
	if s.p.Signing == nil {
		return ""
	}
	return s.p.Signing.Scheme
}

// signsMentioning reports whether a signed field name contains sub.
func (s *Simulator) signsMentioning(sub string) bool {
	if s.p.Signing == nil {
		return false
	}
	for _, f := range s.p.Signing.Fields {
		if strings.Contains(f, sub) {
			return true
		}
	}
	return false
}

func listed(list []string, field string) bool {
	for _, f := range list {
		if f == field || strings.HasPrefix(f, field+".") {
			return true
		}
	}
	return false
}

// key looks a literal key up in a JSON object (no path syntax).
func key(o gjson.Result, name string) (gjson.Result, bool) {
	var out gjson.Result
	found := false
	if !o.IsObject() {
		return out, false
	}
	o.ForEach(func(k, v gjson.Result) bool {
		if k.Str == name {
			out, found = v, true
			return false
		}
		return true
	})
	return out, found
}

// nonEmptyString reports whether v is a string with at least one byte.
func nonEmptyString(v gjson.Result, ok bool) bool {
	return ok && v.Type == gjson.String && v.Str != ""
}
