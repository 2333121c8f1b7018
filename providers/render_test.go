package providers

import (
	"encoding/json"
	"testing"
)

func TestRenderBody(t *testing.T) {
	rule := func(body, contentType, field string) Rule {
		return Rule{Body: body, ContentType: contentType, When: Condition{Kind: ConditionAssistantFieldPresent, Field: field}}
	}
	tests := []struct {
		reason string
		rule   Rule
		vals   map[string]string
		want   string
	}{
		{
			reason: "every known placeholder is filled, each occurrence",
			rule:   rule(`{"m":"'messages.{index}' : property '{field}' at {path} ({index})","id":"req_{request_id}"}`, "", "reasoning_content"),
			vals:   map[string]string{"index": "4", "field": "reasoning_details", "path": "messages.4", "request_id": "011CX"},
			want:   `{"m":"'messages.4' : property 'reasoning_details' at messages.4 (4)","id":"req_011CX"}`,
		},
		{
			reason: "{field} falls back to the condition field",
			rule:   rule(`{"loc":["body","messages",{index},"assistant","{field}"]}`, "", "reasoning"),
			vals:   map[string]string{"index": "6"},
			want:   `{"loc":["body","messages",6,"assistant","reasoning"]}`,
		},
		{
			reason: "unknown placeholders and placeholders without a value stay as they are",
			rule:   rule(`{"m":"{function} at {path} for {request_id}"}`, "", ""),
			vals:   map[string]string{"function": "read_file", "path": "messages.1.content.0"},
			want:   `{"m":"{function} at messages.1.content.0 for {request_id}"}`,
		},
		{
			reason: "a value cannot break a JSON body: quotes and backslashes are escaped",
			rule:   rule(`{"m":"field {field}"}`, "application/json", ""),
			vals:   map[string]string{"field": `a"b\c`},
			want:   `{"m":"field a\"b\\c"}`,
		},
		{
			reason: "HTML characters are not escaped in JSON bodies",
			rule:   rule(`{"m":"{field}"}`, "", ""),
			vals:   map[string]string{"field": "<x>&"},
			want:   `{"m":"<x>&"}`,
		},
		{
			reason: "non-JSON bodies get values verbatim",
			rule:   rule(`field "{field}" refused`, "text/plain", ""),
			vals:   map[string]string{"field": `a"b`},
			want:   `field "a"b" refused`,
		},
		{
			reason: "no values and no condition field leave the body untouched",
			rule:   rule(`{"m":"{index} {field}"}`, "", ""),
			vals:   nil,
			want:   `{"m":"{index} {field}"}`,
		},
		{
			reason: "values are not substituted twice",
			rule:   rule(`{"m":"{index}/{field}"}`, "", ""),
			vals:   map[string]string{"index": "{field}", "field": "x"},
			want:   `{"m":"{field}/x"}`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.reason, func(t *testing.T) {
			var p *Profile // RenderBody needs nothing from the profile
			if got := p.RenderBody(tc.rule, tc.vals); got != tc.want {
				t.Errorf("RenderBody = %s\nwant          %s", got, tc.want)
			}
		})
	}
}

// TestCommittedBodiesRender renders every committed JSON body with awkward
// values and checks it stays JSON.
func TestCommittedBodiesRender(t *testing.T) {
	ps, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string]string{"index": "12", "field": `we"ird\`, "path": "messages.12.content.3", "request_id": "011C/x"}
	for _, p := range ps {
		for _, r := range p.Rules {
			if !isJSON(r.ContentType) {
				continue
			}
			body := p.RenderBody(r, vals)
			if !json.Valid([]byte(body)) {
				t.Errorf("%s rule %s: rendered body is not JSON: %s", p.Name, r.ID, body)
			}
		}
	}
}
