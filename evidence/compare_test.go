package evidence

import (
	"slices"
	"testing"

	"github.com/tidwall/gjson"
)

// TestCompare holds recorded assistant turns against engine turns written
// for the test and checks each finding's path and verdict.
func TestCompare(t *testing.T) {
	accepted := &acceptIndex{paths: map[string]string{"reasoning|string": "x/recorded/other.yaml#0"}, opaque: map[string]string{"b2s=": "x/recorded/other.yaml#1"}}
	tests := []struct {
		rec, eng string
		want     []string // "path verdict"
		reason   string
	}{
		{`{"role":"assistant","content":"hi","reasoning_content":"r"}`, `{"content":"hi","role":"assistant","reasoning_content":"r"}`, nil,
			"key order does not matter"},
		{`{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"c2ln"},{"type":"text","text":"a"}]}`,
			`{"role":"assistant","content":[{"type":"text","text":"a"}]}`,
			[]string{"m.content.0 advisory"}, "a dropped thinking block is one block less, its signature with it"},
		{`{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"c2ln"}]}`,
			`{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"dGFtcGVyZWQ="}]}`,
			[]string{"m.content.0.signature fail"}, "other bytes for a signature fail"},
		{`{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"ab+/"}]}`,
			`{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"ab-_"}]}`,
			[]string{"m.content.0.signature pass"}, "the same bytes in the URL-safe alphabet pass with a note"},
		{`{"role":"model","parts":[{"text":"a","thoughtSignature":"c2ln"},{"functionCall":{"name":"f"}}]}`,
			`{"role":"model","parts":[{"text":"a"},{"functionCall":{"name":"f"},"thoughtSignature":"c2ln"}]}`,
			[]string{"m.parts.1.thoughtSignature fail"}, "a signature on another part has moved"},
		{`{"role":"assistant","content":"a"}`, `{"role":"assistant","content":"a","reasoning":"r"}`,
			[]string{"m.reasoning pass"}, "more, but another recording shows the key accepted"},
		{`{"role":"assistant","content":"a"}`, `{"role":"assistant","content":"a","reasoning_details":[{"type":"reasoning.text","text":"r"}]}`,
			[]string{"m.reasoning_details fail"}, "more that no recording shows accepted fails"},
		{`{"role":"assistant","content":"a"}`, `{"role":"assistant","content":"a","reasoning_opaque":"b2s="}`,
			[]string{"m.reasoning_opaque pass"}, "an opaque value another recording shows accepted"},
		{`{"role":"assistant","content":"<think>r</think>\n\na"}`, `{"role":"assistant","content":"a"}`,
			[]string{"m.content advisory"}, "reasoning inlined by the client: the engine's text is part of it"},
		{`{"role":"assistant","content":"a"}`, `{"role":"assistant","content":"b"}`,
			[]string{"m.content fail"}, "other text fails"},
		{`{"role":"assistant","content":"x","n":1}`, `{"role":"assistant","content":null,"n":1.0}`,
			[]string{"m.content advisory", "m.n fail"}, "null for text is less; 1.0 is not 1"},
		{`{"role":"assistant","tool_calls":[{"id":"a","type":"function"}]}`, `{"role":"assistant","tool_calls":[{"id":"a","type":"function"},{"id":"b","type":"function"}]}`,
			[]string{"m.tool_calls.(engine 1) fail"}, "an element only the engine sends"},
	}
	for _, tc := range tests {
		c := &comparer{base: "m", accepted: accepted}
		c.value(nil, gjson.Parse(tc.rec), gjson.Parse(tc.eng))
		var got []string
		for _, f := range c.finish() {
			got = append(got, f.Path+" "+string(f.Verdict))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got  %v\n want %v", tc.reason, got, tc.want)
		}
	}
}

// TestAlign aligns arrays by element kind.
func TestAlign(t *testing.T) {
	parse := func(s string) []gjson.Result { return gjson.Parse(s).Array() }
	tests := []struct {
		a, b   string
		want   [][2]int
		reason string
	}{
		{`[{"type":"thinking"},{"type":"text"}]`, `[{"type":"text"}]`, [][2]int{{1, 0}}, "the text block pairs with the text block"},
		{`[{"text":"a","thoughtSignature":"s"}]`, `[{"text":"b"}]`, [][2]int{{0, 0}}, "an opaque key does not change a part's kind"},
		{`[{"functionCall":{}},{"text":"a"}]`, `[{"text":"a"},{"functionCall":{}}]`, [][2]int{{1, 0}}, "one of two swapped parts pairs (the first of the longest common runs)"},
	}
	for _, tc := range tests {
		if got := align(parse(tc.a), parse(tc.b)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.reason, got, tc.want)
		}
	}
}
