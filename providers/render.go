package providers

import (
	"bytes"
	"encoding/json"
	"mime"
	"strings"
)

// RenderBody returns rule r's body with its placeholders filled from vals,
// keyed without braces: {index}, {field}, {path}, {request_id}, {item},
// {item_type} and {ref}. {field}
// falls back to the rule's condition field when vals has no "field". A
// placeholder without a value, and any other brace pair, is left as it is.
// When the rule's content type is JSON, each value is escaped as JSON string
// content, so a value can never break the body's syntax (identifiers and
// numbers are unchanged by that escaping).
func (p *Profile) RenderBody(r Rule, vals map[string]string) string {
	escape := isJSON(r.ContentType)
	pairs := make([]string, 0, 8)
	for _, ph := range Placeholders() {
		key := strings.Trim(ph, "{}")
		v, ok := vals[key]
		if !ok && ph == PlaceholderField && r.When.Field != "" {
			v, ok = r.When.Field, true
		}
		if !ok {
			continue
		}
		if escape {
			v = jsonEscape(v)
		}
		pairs = append(pairs, ph, v)
	}
	if len(pairs) == 0 {
		return r.Body
	}
	return strings.NewReplacer(pairs...).Replace(r.Body)
}

// sampleValues are the placeholder values a JSON body is checked with.
func sampleValues(r Rule) map[string]string {
	field := r.When.Field
	if field == "" {
		field = "reasoning_content"
	}
	return map[string]string{
		"index":      "2",
		"field":      field,
		"path":       "messages.2.content.0",
		"request_id": "011CSampleRequest",
		"item":       "rs_sample",
		"item_type":  "function_call",
		"ref":        "rs_sample",
	}
}

// isJSON reports whether a rule's content type is JSON; empty means
// application/json.
func isJSON(contentType string) bool {
	if contentType == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// jsonEscape returns s escaped as the content of a JSON string, without the
// surrounding quotes.
func jsonEscape(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return s
	}
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}
