package sim

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/replaycheck/replaycheck/providers"
)

// hit locates the value a rule fired on.
type hit struct {
	// index is the 0-based message (or Gemini content) index in play.
	index int
	// field is the key in play.
	field string
	// path is the JSON path of the offending message field or content
	// block: messages.2.reasoning_content, messages.1.content.0,
	// contents.3.parts.0, input.4.
	path string
	// item, itemType and ref name the Responses input item in play (its
	// id, or a function_call's call_id), its type, and the id of the item
	// it needs beside it.
	item, itemType, ref string
}

// supports reports whether the dialect can evaluate condition c.
func supports(d dialect, c providers.Condition) error {
	switch c.Kind {
	case providers.ConditionTopLevelFieldPresent:
		if c.Field == "" {
			return fmt.Errorf("condition %s: no field", c.Kind)
		}
		return nil
	case providers.ConditionAssistantFieldPresent, providers.ConditionToolTurnFieldMissing,
		providers.ConditionSignatureInvalid, providers.ConditionSignatureMissing, providers.ConditionSealedBlobForeign:
		if c.Field == "" {
			return fmt.Errorf("condition %s: no field", c.Kind)
		}
		return d.supports(c)
	case providers.ConditionReasoningWithoutFollower, providers.ConditionItemWithoutReasoning, providers.ConditionToolOutputMissing:
		return d.supports(c)
	case providers.ConditionPathNotServed:
		if c.Field == "" {
			return fmt.Errorf("condition %s: no field", c.Kind)
		}
		return nil
	default:
		return fmt.Errorf("condition kind %q is not simulated", c.Kind)
	}
}

// unsupported is the error for a condition a dialect cannot evaluate.
func unsupported(mode string, c providers.Condition) error {
	return fmt.Errorf("condition %s(%s) is not simulated for api mode %s", c.Kind, c.Field, mode)
}

// match returns the first rule that held on the simulator's day and whose
// condition holds for q.
func (s *Simulator) match(q *request) (*providers.Rule, hit, bool) {
	for i := range s.p.Rules {
		rule := &s.p.Rules[i]
		c := rule.When
		if !c.AppliesTo(q.model) || !rule.HoldsOn(s.date) {
			continue
		}
		if c.Kind == providers.ConditionPathNotServed {
			if strings.HasSuffix(q.path, c.Field) {
				return rule, hit{index: 0, field: c.Field, path: q.path}, true
			}
			continue
		}
		if c.Kind == providers.ConditionTopLevelFieldPresent {
			if v := q.root.Get(c.Field); v.Exists() && (len(c.Values) == 0 || slices.Contains(c.Values, v.String())) && !slices.Contains(c.ExceptValues, v.String()) {
				return rule, hit{index: 0, field: c.Field, path: c.Field}, true
			}
			continue
		}
		if h, ok := s.d.check(s, q, c); ok {
			return rule, h, true
		}
	}
	return nil, hit{}, false
}

func statusOf(rule *providers.Rule) int {
	if rule.Status == 0 {
		return http.StatusBadRequest
	}
	return rule.Status
}

// refuse answers with the rule's status and rendered body; a streaming
// request to a rule framed as SSE gets the body as one `data:` line.
func (s *Simulator) refuse(w http.ResponseWriter, q *request, rule *providers.Rule, h hit) {
	vals := map[string]string{
		"index":      strconv.Itoa(h.index),
		"field":      h.field,
		"path":       h.path,
		"request_id": q.id,
	}
	for k, v := range map[string]string{"item": h.item, "item_type": h.itemType, "ref": h.ref} {
		if v != "" {
			vals[k] = v
		}
	}
	body := s.p.RenderBody(*rule, vals)
	ct := rule.ContentType
	if ct == "" {
		ct = "application/json"
	}
	if q.stream && rule.StreamFraming == "sse" {
		ct = "text/event-stream"
		body = "data:" + body + "\n\n"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set(RuleHeader, rule.ID)
	w.WriteHeader(statusOf(rule))
	_, _ = w.Write([]byte(body))
}
