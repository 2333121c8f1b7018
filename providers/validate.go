package providers

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// kebab matches a kebab-case id: lower-case words of letters and digits.
var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Validate checks the profile against the schema and vocabulary: required
// fields, known api mode, confidence, stream framing, carriers, condition
// kinds and signing schemes, rule statuses in 400–499, JSON bodies that stay
// JSON after placeholder substitution, unique rule ids, and notes where a
// confidence level needs one. All problems are reported, joined, each a
// *[ValidationError] that names the rule or flag in play. Validate cannot
// check the file stem; [Parse] and [Load] do.
func (p *Profile) Validate() error {
	list := p.issues()
	for _, e := range list {
		e.Profile = p.Name
	}
	return joinIssues(list)
}

// issues lists every problem with the profile, each with its YAML path.
func (p *Profile) issues() []*ValidationError {
	var out []*ValidationError
	add := func(e *ValidationError) { out = append(out, e) }

	switch {
	case p.Name == "":
		add(issue(at(nil, "name"), "name is required"))
	case !kebab.MatchString(p.Name):
		add(issue(at(nil, "name"), "name %q is not kebab-case", p.Name))
	}
	if p.Version < 1 {
		add(issue(at(nil, "version"), "version must be at least 1, got %d", p.Version))
	}
	if strings.TrimSpace(p.Title) == "" {
		add(issue(at(nil, "title"), "title is required"))
	}
	switch {
	case p.APIMode == "":
		add(issue(at(nil, "api_mode"), "api_mode is required (want %s)", quoteList(apiModes)))
	case !oneOf(p.APIMode, apiModes):
		add(issue(at(nil, "api_mode"), "unknown api_mode %q (want %s)", p.APIMode, quoteList(apiModes)))
	}
	if len(p.Hosts) == 0 {
		add(issue(at(nil, "hosts"), "hosts: at least one host is required"))
	}
	for i, h := range p.Hosts {
		if h == "" || strings.ContainsAny(h, "/: \t") || strings.ToLower(h) != h {
			add(issue(at(nil, "hosts", strconv.Itoa(i)), "host %q is not a bare lower-case host name", h))
		}
	}
	for i, h := range p.HostPatterns {
		if !strings.Contains(h, "*") || strings.Contains(h, "**") || strings.ContainsAny(h, "/: \t") || strings.ToLower(h) != h || !strings.Contains(h, ".") {
			add(issue(at(nil, "host_patterns", strconv.Itoa(i)), "host pattern %q is not a lower-case hostname with \"*\" for part of one label (\"*-aiplatform.googleapis.com\")", h))
		}
	}
	out = append(out, confidenceIssues(at(nil, "confidence"), "", p.Confidence, p.ConfidenceNote, "confidence_note")...)
	if len(p.Sources) == 0 {
		add(issue(at(nil, "sources"), "sources: at least one source is required"))
	}
	for i, s := range p.Sources {
		if strings.TrimSpace(s) == "" {
			add(issue(at(nil, "sources", strconv.Itoa(i)), "sources: empty source"))
		}
	}
	out = append(out, p.Emits.issues()...)
	if p.Emits.WhenThinking && p.APIMode != "bedrock-converse" {
		out = append(out, issue(at(at(nil, "emits"), "when_thinking"), "emits: when_thinking is for bedrock-converse profiles (this one is %s)", p.APIMode))
	}
	if p.Emits.Redacted && (p.APIMode != "bedrock-converse" || !oneOf("reasoningContent", p.Emits.Fields)) {
		out = append(out, issue(at(at(nil, "emits"), "redacted"), "emits: redacted is for bedrock-converse profiles that emit reasoningContent (this one is %s, emitting %v)", p.APIMode, p.Emits.Fields))
	}
	out = append(out, fieldListIssues(at(nil, "reads"), "reads", p.Reads, carriers)...)
	out = append(out, p.ruleIssues()...)
	for i, g := range p.GenerationFailures {
		out = append(out, g.issues(at(nil, "generation_failures", strconv.Itoa(i)))...)
	}
	for i, f := range p.Flags {
		out = append(out, f.issues(at(nil, "flags", strconv.Itoa(i)), i)...)
	}
	if p.Signing != nil {
		out = append(out, p.Signing.issues()...)
	}
	out = append(out, p.ignoreIssues()...)
	if p.PriorThinking != nil {
		out = append(out, p.PriorThinking.issues(p.APIMode)...)
	}
	if p.Serves != nil {
		out = append(out, p.Serves.issues()...)
		out = append(out, p.servesHostsIssues()...)
	}
	return out
}

// ignoreIssues checks the declared ignorable differences: a known
// difference, declared once, on a chat profile, with its source and the
// note its confidence needs.
func (p *Profile) ignoreIssues() []*ValidationError {
	var out []*ValidationError
	first := map[string]int{}
	for i, ig := range p.Ignore {
		path := at(nil, "ignore", strconv.Itoa(i))
		label := fmt.Sprintf("ignore[%d]", i)
		if ig.Difference != "" {
			label = fmt.Sprintf("ignore %q", ig.Difference)
		}
		switch j, dup := first[ig.Difference]; {
		case ig.Difference == "":
			out = append(out, issue(at(path, "difference"), "%s: difference is required (want %s)", label, quoteList(differences)))
		case !oneOf(ig.Difference, differences):
			out = append(out, issue(at(path, "difference"), "%s: unknown difference (want %s)", label, quoteList(differences)))
		case dup:
			out = append(out, issue(at(path, "difference"), "%s: declared twice (first in ignore[%d])", label, j))
		case p.APIMode != APIModeChat:
			out = append(out, issue(at(path, "difference"), "%s: only chat profiles declare message differences, this one speaks %s", label, p.APIMode))
		}
		if _, dup := first[ig.Difference]; !dup {
			first[ig.Difference] = i
		}
		if strings.TrimSpace(ig.Source) == "" {
			out = append(out, issue(at(path, "source"), "%s: source is required", label))
		}
		out = append(out, confidenceIssues(at(path, "confidence"), label+": ", ig.Confidence, ig.Note, "note")...)
	}
	return out
}

// confidenceIssues checks a confidence level and the note it needs.
func confidenceIssues(path []string, label, level, note, noteKey string) []*ValidationError {
	switch {
	case level == "":
		return []*ValidationError{issue(path, "%sconfidence is required (want %s)", label, quoteList(confidences))}
	case !oneOf(level, confidences):
		return []*ValidationError{issue(path, "%sunknown confidence %q (want %s)", label, level, quoteList(confidences))}
	case level != ConfidenceConfirmed && strings.TrimSpace(note) == "":
		return []*ValidationError{issue(path, "%sconfidence %s needs a %s saying what is assumed", label, level, noteKey)}
	}
	return nil
}

// fieldListIssues checks a list of field names against a vocabulary.
func fieldListIssues(path []string, what string, list, vocab []string) []*ValidationError {
	var out []*ValidationError
	seen := map[string]bool{}
	for i, f := range list {
		p := at(path, strconv.Itoa(i))
		switch {
		case !oneOf(f, vocab):
			out = append(out, issue(p, "%s: unknown field name %q (want one of %s)", what, f, strings.Join(vocab, ", ")))
		case seen[f]:
			out = append(out, issue(p, "%s: duplicate field %q", what, f))
		}
		seen[f] = true
	}
	return out
}

// issues checks the response description.
func (e Emits) issues() []*ValidationError {
	path := at(nil, "emits")
	out := fieldListIssues(at(path, "fields"), "emits", e.Fields, carriers)
	switch {
	case e.Stream == "":
		out = append(out, issue(at(path, "stream"), "emits: stream is required (want %s)", quoteList(streams)))
	case !oneOf(e.Stream, streams):
		out = append(out, issue(at(path, "stream"), "emits: unknown stream framing %q (want %s)", e.Stream, quoteList(streams)))
	}
	if e.DetailsFormat != "" && !oneOf("reasoning_details", e.Fields) {
		out = append(out, issue(at(path, "details_format"), "emits: details_format needs reasoning_details among the fields"))
	}
	if strings.TrimSpace(e.Source) == "" {
		out = append(out, issue(at(path, "source"), "emits: source is required"))
	}
	return out
}

// ruleIssues checks every rule and the uniqueness of rule ids.
func (p *Profile) ruleIssues() []*ValidationError {
	var out []*ValidationError
	first := map[string]int{}
	for i, r := range p.Rules {
		path := at(nil, "rules", strconv.Itoa(i))
		label := ruleLabel(i, r)
		if r.ID != "" {
			if j, dup := first[r.ID]; dup {
				out = append(out, issue(at(path, "id"), "%s: duplicate rule id (first used by rules[%d])", label, j))
			} else {
				first[r.ID] = i
			}
		}
		out = append(out, r.issues(path, label, p.Reads)...)
	}
	return out
}

// ruleLabel names a rule in messages: rule "id", or rules[i] without an id.
func ruleLabel(i int, r Rule) string {
	if r.ID == "" {
		return fmt.Sprintf("rules[%d]", i)
	}
	return fmt.Sprintf("rule %q", r.ID)
}

// issues checks one rule; reads are the profile's read carriers.
func (r Rule) issues(path []string, label string, reads []string) []*ValidationError {
	var out []*ValidationError
	add := func(key, format string, args ...any) {
		out = append(out, issue(at(path, key), label+": "+format, args...))
	}
	switch {
	case r.ID == "":
		add("id", "id is required")
	case !kebab.MatchString(r.ID):
		add("id", "id is not kebab-case")
	}
	out = append(out, r.When.issues(at(path, "when"), label, reads)...)
	if r.Status < 400 || r.Status > 499 {
		add("status", "status %d is outside 400-499", r.Status)
	}
	if strings.TrimSpace(r.Body) == "" {
		add("body", "body is required")
	} else if isJSON(r.ContentType) {
		if err := jsonCheck((&Profile{}).RenderBody(r, sampleValues(r))); err != nil {
			add("body", "body is not valid JSON after placeholder substitution: %v", err)
		}
	}
	if r.StreamFraming != "" && r.StreamFraming != StreamSSE {
		add("stream_framing", "unknown stream framing %q (want sse or nothing)", r.StreamFraming)
	}
	if strings.TrimSpace(r.Source) == "" {
		add("source", "source is required")
	}
	for _, d := range []struct{ key, value string }{{"from", r.From}, {"until", r.Until}} {
		if d.value != "" && !isDay(d.value) {
			add(d.key, "%s %q is not a day (want YYYY-MM-DD)", d.key, d.value)
		}
	}
	if r.From != "" && r.Until != "" && isDay(r.From) && isDay(r.Until) && r.From >= r.Until {
		add("until", "until %s is not after from %s: the rule would hold on no day", r.Until, r.From)
	}
	out = append(out, confidenceIssues(at(path, "confidence"), label+": ", r.Confidence, r.Note, "note")...)
	return out
}

// issues checks one generation failure.
func (g GenerationFailure) issues(path []string) []*ValidationError {
	var out []*ValidationError
	label := fmt.Sprintf("generation failure %q", g.ID)
	add := func(key, format string, args ...any) {
		out = append(out, issue(at(path, key), label+": "+format, args...))
	}
	if !kebab.MatchString(g.ID) {
		add("id", "id is not kebab-case")
	}
	if g.Status < 400 || g.Status > 599 {
		add("status", "status %d is not an error status", g.Status)
	}
	if strings.TrimSpace(g.Code) == "" {
		add("code", "code is required: a recorded body is recognised by its error.code")
	}
	if err := jsonCheck(g.Body); err != nil {
		add("body", "body is not valid JSON: %v", err)
	} else if got := gjsonCode(g.Body); got != g.Code {
		add("body", "body's error.code is %q, not the code %q", got, g.Code)
	}
	if strings.TrimSpace(g.Source) == "" {
		add("source", "source is required")
	}
	out = append(out, confidenceIssues(at(path, "confidence"), label+": ", g.Confidence, g.Note, "note")...)
	return out
}

// gjsonCode returns the error.code of an error body.
func gjsonCode(body string) string {
	var v struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal([]byte(body), &v)
	return v.Error.Code
}

// Failure returns the generation failure whose code an error body
// carries at error.code, if the profile declares one with its status.
func (p *Profile) Failure(status int, body []byte) (GenerationFailure, bool) {
	code := gjsonCode(string(body))
	for _, g := range p.GenerationFailures {
		if code != "" && g.Code == code && g.Status == status {
			return g, true
		}
	}
	return GenerationFailure{}, false
}

// StreamFailure returns the generation failure whose code an error sent
// inside a 2xx stream carries. The stream answered 200 before the model's
// output failed, so the code alone names it, whatever status the profile
// records for the same failure answered whole.
func (p *Profile) StreamFailure(body []byte) (GenerationFailure, bool) {
	code := gjsonCode(string(body))
	for _, g := range p.GenerationFailures {
		if code != "" && g.Code == code {
			return g, true
		}
	}
	return GenerationFailure{}, false
}

// isDay reports whether s is a calendar day written YYYY-MM-DD.
func isDay(s string) bool {
	t, err := time.Parse(time.DateOnly, s)
	return err == nil && t.Format(time.DateOnly) == s
}

// jsonCheck reports why s is not one JSON value, with the byte offset.
func jsonCheck(s string) error {
	var v any
	err := json.Unmarshal([]byte(s), &v)
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Errorf("byte offset %d: %w", syn.Offset, err)
	}
	return err
}

// issues checks a condition: a known kind, the field it needs, and the
// options that only some kinds take.
func (c Condition) issues(path []string, label string, reads []string) []*ValidationError {
	var out []*ValidationError
	add := func(key, format string, args ...any) {
		out = append(out, issue(at(path, key), label+": "+format, args...))
	}
	switch {
	case c.Kind == "":
		add("kind", "condition kind is required (want %s)", quoteList(kinds))
		return out
	case !oneOf(c.Kind, kinds):
		add("kind", "unknown condition kind %q", c.Kind)
		return out
	}
	switch c.Kind {
	case ConditionAssistantFieldPresent, ConditionToolTurnFieldMissing:
		switch {
		case c.Field == "":
			add("field", "condition %s needs a field", c.Kind)
		case !oneOf(c.Field, carriers):
			add("field", "condition %s: unknown carrier %q", c.Kind, c.Field)
		case c.Kind == ConditionAssistantFieldPresent && oneOf(c.Field, reads) && len(c.Models) == 0 && len(c.ExceptModels) == 0:
			add("field", "refuses %q for every model, but reads lists it", c.Field)
		}
	case ConditionTopLevelFieldPresent:
		if c.Field == "" {
			add("field", "condition %s needs a field", c.Kind)
		}
		for i, v := range c.Values {
			if v == "" {
				add("values", "values[%d] is empty", i)
			}
		}
		c.exceptValueIssues(add)
	case ConditionSignatureInvalid, ConditionSignatureMissing, ConditionSealedBlobForeign:
		switch {
		case c.Field == "":
			add("field", "condition %s needs a field", c.Kind)
		case !oneOf(c.Field, signedFields):
			add("field", "condition %s: unknown signed field %q", c.Kind, c.Field)
		}
	case ConditionPathNotServed:
		if !strings.HasPrefix(c.Field, "/") || strings.ContainsAny(c.Field, " ?#") {
			add("field", "condition %s needs a field that is a URL path (\"/v1/messages\"), got %q", c.Kind, c.Field)
		}
	case ConditionReasoningWithoutFollower, ConditionItemWithoutReasoning, ConditionToolOutputMissing:
		if c.Field != "" {
			add("field", "condition %s takes no field (the items it is about are its kind)", c.Kind)
		}
	}
	if c.Kind != ConditionTopLevelFieldPresent && len(c.Values) > 0 {
		add("values", "values apply only to %s", ConditionTopLevelFieldPresent)
	}
	if c.Kind != ConditionTopLevelFieldPresent && len(c.ExceptValues) > 0 {
		add("except_values", "except_values apply only to %s", ConditionTopLevelFieldPresent)
	}
	if c.Kind != ConditionToolTurnFieldMissing && (c.BlankIsMissing || c.WhitespaceIsMissing) {
		add("kind", "blank_is_missing and whitespace_is_missing apply only to %s", ConditionToolTurnFieldMissing)
	}
	if c.WhitespaceIsMissing && !c.BlankIsMissing {
		add("whitespace_is_missing", "whitespace_is_missing needs blank_is_missing")
	}
	out = append(out, modelListIssues(at(path, "models"), label, c.Models)...)
	out = append(out, modelListIssues(at(path, "except_models"), label, c.ExceptModels)...)
	return out
}

// modelListIssues checks model substrings: non-empty and lower-case, since
// they are matched against the lower-cased model id.
func modelListIssues(path []string, label string, list []string) []*ValidationError {
	var out []*ValidationError
	for i, m := range list {
		if strings.TrimSpace(m) == "" || strings.ToLower(m) != m {
			out = append(out, issue(at(path, strconv.Itoa(i)), "%s: model substring %q must be non-empty and lower-case", label, m))
		}
	}
	return out
}

// issues checks one flag.
func (f Flag) issues(path []string, i int) []*ValidationError {
	label := fmt.Sprintf("flags[%d]", i)
	if f.Path != "" {
		label = fmt.Sprintf("flag %q", f.Path)
	}
	var out []*ValidationError
	add := func(key, format string, args ...any) {
		out = append(out, issue(at(path, key), label+": "+format, args...))
	}
	if f.Path == "" {
		add("path", "path is required")
	}
	if f.Value == nil {
		add("value", "value is required")
	}
	switch {
	case f.Effect == "":
		add("effect", "effect is required (want %s)", quoteList(effects))
	case !oneOf(f.Effect, effects):
		add("effect", "unknown effect %q (want %s)", f.Effect, quoteList(effects))
	}
	if strings.TrimSpace(f.Source) == "" {
		add("source", "source is required")
	}
	out = append(out, modelListIssues(at(path, "models"), label, f.Models)...)
	return out
}

// issues checks the signing description.
func (s *Signing) issues() []*ValidationError {
	path := at(nil, "signing")
	var out []*ValidationError
	switch {
	case s.Scheme == "":
		out = append(out, issue(at(path, "scheme"), "signing: scheme is required (want %s)", quoteList(schemes)))
	case !oneOf(s.Scheme, schemes):
		out = append(out, issue(at(path, "scheme"), "signing: unknown scheme %q (want %s)", s.Scheme, quoteList(schemes)))
	}
	if len(s.Fields) == 0 {
		out = append(out, issue(at(path, "fields"), "signing: at least one signed field is required"))
	}
	out = append(out, fieldListIssues(at(path, "fields"), "signing", s.Fields, signedFields)...)
	if strings.TrimSpace(s.Source) == "" {
		out = append(out, issue(at(path, "source"), "signing: source is required"))
	}
	return out
}
