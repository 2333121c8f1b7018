package anthropic

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// TestDeltaValue checks which deltas are one typed string value and
// nothing else block.delta reads: only their events give a layout.
func TestDeltaValue(t *testing.T) {
	for _, tc := range []struct {
		reason, delta, typ, value string
	}{
		{"a thinking delta", `{"type":"thinking_delta","thinking":"hm"}`, "thinking_delta", "hm"},
		{"a text delta", `{"type":"text_delta","text":"hi"}`, "text_delta", "hi"},
		{"tool input JSON", `{"type":"input_json_delta","partial_json":"{\"a\":"}`, "input_json_delta", `{"a":`},
		{"a signature", `{"type":"signature_delta","signature":"c2ln"}`, "signature_delta", "c2ln"},
		{"another type's key beside it is ignored by the capture", `{"type":"text_delta","text":"hi","thinking":"x"}`, "text_delta", "hi"},
		{"an unknown delta type", `{"type":"citations_delta","citation":{}}`, "", ""},
		{"two types", `{"type":"text_delta","type":"thinking_delta","thinking":"x"}`, "", ""},
		{"two values", `{"type":"text_delta","text":"a","text":"b"}`, "", ""},
		{"a missing value", `{"type":"text_delta"}`, "", ""},
		{"a value that is not a string", `{"type":"text_delta","text":1}`, "", ""},
	} {
		typ, value, ok := deltaValue(gjson.Parse(tc.delta))
		if typ != tc.typ || value.Str != tc.value || ok != (tc.typ != "") {
			t.Errorf("%s: deltaValue(%s) = %q %q %v, want %q %q", tc.reason, tc.delta, typ, value.Str, ok, tc.typ, tc.value)
		}
	}
}

// events frames event data lines as an SSE stream.
func events(data ...string) string {
	var b strings.Builder
	for _, d := range data {
		b.WriteString("event: e\ndata: " + d + "\n\n")
	}
	return b.String()
}

// FuzzLayoutsAgree checks that reading events by layout never changes the
// captured message or error: a stream of events (one per line of the fuzz
// input) is captured with and without layouts.
func FuzzLayoutsAgree(f *testing.F) {
	f.Add(strings.Join([]string{
		`{"type":"message_start","message":{"role":"assistant","content":[]}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"a"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"b\n"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"c2ln"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"f","input":{}}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"a\""}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":":1}"},"usage":{"n":3}}`,
		`{"type":"message_stop"}`,
	}, "\n"))
	f.Fuzz(func(t *testing.T, input string) {
		stream := events(strings.Split(strings.ReplaceAll(input, "\r", ""), "\n")...)
		want, wantErr := captureStream(strings.NewReader(stream), &streamState{})
		got, gotErr := captureStream(strings.NewReader(stream), newStreamState())
		if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
			t.Fatalf("with layouts: %v; without: %v", gotErr, wantErr)
		}
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(got)
		if string(w) != string(g) {
			t.Fatalf("with layouts: %s\nwithout: %s", g, w)
		}
	})
}
