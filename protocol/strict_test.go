package protocol

import (
	"strings"
	"testing"
)

// TestDecodeStrict: what encoding/json lets through, the protocol refuses,
// each with the JSON path in play.
func TestDecodeStrict(t *testing.T) {
	tests := []struct {
		line   string
		into   func() any
		want   string // "" for success; otherwise the whole error
		reason string
	}{
		{`{"id":3,"result":{"carriers":[],"pad":false}}`, reply, "", "a plain reply decodes"},
		{`{"id":3,"result":{}}  `, reply, "", "trailing blanks are fine"},
		{`{"id":3,"ID":4}`, reply, "ID: unknown field", "keys match exactly, not by case as encoding/json does"},
		{`{"id":3,"id":4}`, reply, "id: given twice", "a key given twice is refused"},
		{`{"result":{}}`, reply, "id: missing", "the id is required"},
		{`{"id":null}`, reply, "id: missing", "null is not a value for a required field"},
		{`{"id":"3"}`, reply, "id: want an integer, got a string", "types are checked"},
		{`{"id":3.5}`, reply, "id: want an integer, got a number", "an id is an integer"},
		{`{"id":3} {"id":4}`, reply, "offset 9: unexpected data after the JSON object", "one object per line"},
		{`{"id":3`, reply, "offset 7: unexpected end of JSON", "a cut line says where it ends"},
		{``, reply, "empty line (want a JSON object)", "an empty line is no reply"},
		{`[1]`, reply, "the reply: want an object, got an array", "a reply is an object"},
		{`{"id":1,"unsupported":{"reason":"x","why":1}}`, reply, "unsupported.why: unknown field", "nested objects are strict"},
		{`{"carriers":["reasoning"],"pad":true,"flags":[{"path":"a"}]}`, decision, "result.flags[0].value: missing", "paths index arrays"},
		{`{"carriers":{},"pad":true}`, decision, "result.carriers: want an array, got an object", "arrays are arrays"},
		{`{"carriers":[1],"pad":true}`, decision, "result.carriers[0]: want a string, got a number", "array items are checked"},
		{`{"learnt":true,"verdict":"v","model_config":{"rejected_carriers":[{"provider":"p","host":"h","model":"m","carriers":["reasoning"],"extra":0}]}}`,
			learn, "result.model_config.rejected_carriers[0].extra: unknown field", "embedded key fields flatten, extra keys are refused"},
		{`{"learnt":true,"verdict":"v","model_config":{"rejected_carriers":[{"host":"h","model":"m","carriers":[]}]}}`,
			learn, "result.model_config.rejected_carriers[0].provider: missing", "embedded required fields are required"},
		{`{"message":{"role":"assistant","anything":{"kept":true}}}`, message, "", "a message is raw: its keys are the storage form's"},
	}
	for _, tc := range tests {
		err := decodeStrict([]byte(tc.line), tc.into(), pathFor(tc.into()))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want && !(tc.want != "" && strings.HasPrefix(got, tc.want)) {
			t.Errorf("%s: %s\n got: %q\nwant: %q", tc.reason, tc.line, got, tc.want)
		}
	}
}

func reply() any    { return &Reply{} }
func decision() any { return &Decision{} }
func learn() any    { return &LearnResult{} }
func message() any  { return &MessageResult{} }

// pathFor names the document: a reply is the root, results are "result".
func pathFor(v any) string {
	if _, ok := v.(*Reply); ok {
		return ""
	}
	return "result"
}
