package chat

import (
	"testing"

	"github.com/tidwall/gjson"
)

func TestFastDelta(t *testing.T) {
	tests := []struct {
		data         string
		field, value string
		ok           bool
		reason       string
	}{
		{`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}`, "content", "hi", true, "the common content delta"},
		{`{"choices":[{"delta":{"reasoning_content":"think"}}]}`, "reasoning_content", "think", true, "no index means choice 0"},
		{`{"choices":[{"index":0,"delta":{"reasoning":"a \"quoted\" \u00e9 line\n"}}]}`, "reasoning", "a \"quoted\" é line\n", true, "escapes are decoded"},
		{`{"choices":[{"index":0,"delta":{"reasoning_text":""}}]}`, "reasoning_text", "", true, "an empty piece"},
		{`{"choices":[{"index":1,"delta":{"content":"x"}}]}`, "", "", false, "another choice"},
		{`{"choices":[{"index":10,"delta":{"content":"x"}}]}`, "", "", false, "index 10 is not 0"},
		{`{"choices":[{"index":0,"delta":{"content":"x","role":"assistant"}}]}`, "", "", false, "two fields take the general path"},
		{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0}]}}]}`, "", "", false, "tool calls take the general path"},
		{`{"choices":[{"index":0,"delta":{"role":"assistant"}}]}`, "", "", false, "a field that is not a text carrier"},
		{`{"choices":[{"index":0,"delta":{"content":"x"}},{"index":1,"delta":{"content":"y"}}]}`, "", "", false, "two choices"},
		{`{"error":{"message":"boom"},"choices":[{"delta":{"content":"x"}}]}`, "", "", false, "an error object"},
		{`{"choices":[{"index":0,"delta":{"content":"unterminated}]}`, "", "", false, "an unterminated string"},
		{"{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"raw\ncontrol\"}}]}", "", "", false, "a raw control character"},
		{`{"choices":[{"index":0,"delta":{"content":"x"}}]`, "", "", false, "the chunk is not closed"},
		{`{"choices":[{"index":0,"delta":{"content":"bad \q escape"}}]}`, "", "", false, "an invalid escape"},
	}
	for _, tt := range tests {
		field, value, ok := fastDelta(tt.data)
		if ok != tt.ok || field != tt.field || value != tt.value {
			t.Errorf("fastDelta(%s) = %q %q %v, want %q %q %v: %s", tt.data, field, value, ok, tt.field, tt.value, tt.ok, tt.reason)
		}
	}
}

// FuzzFastDelta checks that the fast path agrees with the general path on
// every valid chunk it accepts.
func FuzzFastDelta(f *testing.F) {
	f.Add(`{"choices":[{"index":0,"delta":{"content":"hi"}}]}`)
	f.Add(`{"choices":[{"delta":{"reasoning":"a \"b\" \\ \/ \u0041"}}]}`)
	f.Add(`{"x":"\"delta\":{\"","choices":[{"index":0,"delta":{"content":"y"}}]}`)
	f.Fuzz(func(t *testing.T, data string) {
		field, value, ok := fastDelta(data)
		if !ok || !gjson.Valid(data) {
			return
		}
		delta := gjson.Get(data, "choices.0.delta")
		n := 0
		delta.ForEach(func(gjson.Result, gjson.Result) bool { n++; return true })
		got := delta.Get(gjson.Escape(field))
		if n != 1 || got.Type != gjson.String || got.Str != value || len(gjson.Get(data, "choices").Array()) != 1 {
			t.Fatalf("fast path read %q=%q from %s; the general path reads %s", field, value, data, delta.Raw)
		}
	})
}
