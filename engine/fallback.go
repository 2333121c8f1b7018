package engine

import (
	"regexp"
	"strings"
)

// unknownFieldPhrases is the wording of an unknown-field refusal (SPEC §6);
// value complaints ("is not allowed to be empty") deliberately do not match.
var unknownFieldPhrases = []string{
	"extra inputs are not permitted",
	"is unsupported",
	"no such field",
	"unknown field",
	"unrecognized request argument",
	"unrecognized field",
	"unknown parameter",
	"unexpected field",
	"additional propert",
	"unknown key",
}

var (
	namesRC = regexp.MustCompile(`(?:^|[^A-Za-z0-9_])reasoning_content(?:$|[^A-Za-z0-9_])`)
	namesRD = regexp.MustCompile(`(?:^|[^A-Za-z0-9_])reasoning_details(?:$|[^A-Za-z0-9_])`)
	// reasoning is also a top-level request parameter, so R counts only when
	// it follows "messages" on the same line, within 80 characters.
	namesR = regexp.MustCompile(`messages[^\n]{0,80}?(?:^|[^A-Za-z0-9_])reasoning(?:$|[^A-Za-z0-9_])`)
)

// IsUnknownFieldRefusal reports whether a response is a 4xx whose body uses
// unknown-field wording.
func IsUnknownFieldRefusal(status int, body []byte) bool {
	if status < 400 || status > 499 {
		return false
	}
	low := strings.ToLower(string(body))
	for _, p := range unknownFieldPhrases {
		if strings.Contains(low, p) {
			return true
		}
	}
	return false
}

// NamedCarriers returns the standard carriers a refusal body names, by
// SPEC §6's rules: reasoning_content and reasoning_details as whole words,
// reasoning only in a message path (it is also a top-level request
// parameter). It does not look at the wording; [RefusedCarriers] does.
func NamedCarriers(body []byte) CarrierSet {
	low := strings.ToLower(string(body))
	var named CarrierSet
	if namesRC.MatchString(low) {
		named = named.With(ReasoningContent)
	}
	if namesRD.MatchString(low) {
		named = named.With(ReasoningDetails)
	}
	if namesR.MatchString(low) {
		named = named.With(Reasoning)
	}
	return named
}

// RefusedCarriers applies SPEC §6 to a refusal of a request that sent the
// carriers in sent: it returns the carriers to drop, or the empty set when
// the refusal is not an unknown-field refusal naming a sent carrier.
// Naming RC drops every sent carrier; naming only R or RD drops those.
func RefusedCarriers(status int, body []byte, sent CarrierSet) CarrierSet {
	if !IsUnknownFieldRefusal(status, body) {
		return 0
	}
	named := NamedCarriers(body).Intersect(sent)
	switch {
	case named.Empty():
		return 0
	case named.Has(ReasoningContent):
		return sent
	default:
		return named
	}
}

// LearnCarrierRefusal records the verdict of a chat refusal in the session's
// model config (SPEC §6) and returns the carriers newly recorded. Nothing is
// recorded for non-chat api modes, RC is never recorded on the must-echo
// tier, and a verdict already recorded yields the empty set, so the caller
// never retries the same field twice.
func LearnCarrierRefusal(s *Session, t *Table, r Route, sent CarrierSet, status int, body []byte) CarrierSet {
	if r.APIMode != "" && r.APIMode != ModeChat {
		return 0
	}
	drop := RefusedCarriers(status, body, sent)
	if t.EchoFamily(r) != "" {
		drop = drop.Minus(NewCarrierSet(ReasoningContent))
	}
	if drop.Empty() {
		return 0
	}
	return s.Config.AddRejection(r.Key(), drop)
}
