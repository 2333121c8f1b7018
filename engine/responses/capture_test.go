package responses_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/responses"
	"github.com/tidwall/gjson"
)

// wholeCases are the responses whole-equals-streamed is checked on.
var wholeCases = []struct {
	reason string
	body   string
}{
	{"reasoning then a call", body(reasoningItem("rs_a", "Check the TTL.", encA), callItem("fc_a", "call_a"))},
	{"two steps: reasoning, call, reasoning, call", body(reasoningItem("rs_a", "a", encA), callItem("fc_a", "call_a"), reasoningItem("rs_b", "b", encB), callItem("fc_b", "call_b"))},
	{"reasoning then an answer with escapes", body(reasoningItem("rs_c", "multi\nline \"quoted\" — summary", encC), messageItem("msg_c", "Line one.\nLine \"two\" ✓"))},
	{"an answer without reasoning", body(messageItem("msg_d", "Just text."))},
	{"a relay's readable, signed reasoning", body(`{"type":"reasoning","id":"rs_x","summary":[],"content":[{"type":"reasoning_text","text":"The capital is Paris."}],"signature":"ErkBCkoICxAC+/=="}`, messageItem("msg_x", "Paris."))},
	{"another output item type kept as it came", body(`{"type":"web_search_call","id":"ws_1","status":"completed"}`, messageItem("msg_w", "Found it."))},
	{"no output at all", body()},
}

// TestCaptureWhole checks the stored form of a whole response: the items
// in order, compacted but byte for byte otherwise, the issuer, and the
// standard view.
func TestCaptureWhole(t *testing.T) {
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, []byte(body(reasoningItem("rs_a", "Step one.", encA), reasoningItem("rs_b", "Step two.", encB),
		callItem("fc_a", "call_a"), callItem("fc_b", "call_b"))), "", "  "); err != nil {
		t.Fatal(err)
	}
	m := capture(t, openaiRoute, pretty.String())
	var blocks []string
	for _, b := range m.Native.Blocks {
		blocks = append(blocks, string(b))
	}
	want := []string{reasoningItem("rs_a", "Step one.", encA), reasoningItem("rs_b", "Step two.", encB), callItem("fc_a", "call_a"), callItem("fc_b", "call_b")}
	if strings.Join(blocks, "\n") != strings.Join(want, "\n") {
		t.Errorf("native items\n got %s\nwant %s", strings.Join(blocks, "\n     "), strings.Join(want, "\n     "))
	}
	if m.Native.Dialect != engine.ModeResponses || m.Native.Issuer == nil || *m.Native.Issuer != openaiRoute.Key() {
		t.Errorf("native turn %s, issuer %+v: want the responses dialect and the route that answered", m.Native.Dialect, m.Native.Issuer)
	}
	if string(m.Content) != "null" || m.ReasoningContent == nil || *m.ReasoningContent != "Step one.\n\nStep two." {
		t.Errorf("standard view: content %s, reasoning_content %v", m.Content, m.ReasoningContent)
	}
	if len(m.ToolCalls) != 2 || !reflect.DeepEqual(m.ToolCalls[1], engine.ToolCall{ID: "call_b", Type: "function", Function: engine.FunctionCall{Name: "lookup", Arguments: `{"q":"ttl"}`}, CallID: "call_b", ResponseItemID: "fc_b"}) {
		t.Errorf("tool calls %+v: want call ids as ids, the item ids kept", m.ToolCalls)
	}
	if b, _ := m.MarshalJSON(); strings.Contains(string(b), `"reasoning_details"`) {
		t.Errorf("encrypted content leaked into a standard carrier: %s", b)
	}
}

// TestCaptureStandardView checks the content and readable reasoning of
// the other cases.
func TestCaptureStandardView(t *testing.T) {
	for _, tc := range []struct {
		reason, body, content, thinking string
	}{
		{"an answer: its text; the summary as readable reasoning", wholeCases[2].body, `"Line one.\nLine \"two\" ✓"`, "multi\nline \"quoted\" — summary"},
		{"a relay's reasoning_text when there is no summary", wholeCases[4].body, `"Paris."`, "The capital is Paris."},
		{"no output: empty content, no reasoning", wholeCases[6].body, `""`, ""},
	} {
		m := capture(t, openaiRoute, tc.body)
		got := ""
		if m.ReasoningContent != nil {
			got = *m.ReasoningContent
		}
		if string(m.Content) != tc.content || got != tc.thinking {
			t.Errorf("%s: content %s, reasoning %q; want %s, %q", tc.reason, m.Content, got, tc.content, tc.thinking)
		}
	}
}

// TestCaptureWholeEqualsStreamed is SPEC §5: the same response captured
// whole and streamed (in pieces of several sizes) is the same message.
func TestCaptureWholeEqualsStreamed(t *testing.T) {
	dl := issuedBy(t, openaiRoute)
	for _, tc := range wholeCases {
		whole, err := dl.Capture([]byte(tc.body))
		if err != nil {
			t.Fatalf("%s: %v", tc.reason, err)
		}
		want, _ := whole.MarshalJSON()
		for _, n := range []int{1, 3, 64} {
			streamed, err := dl.CaptureStream(strings.NewReader(streamOf(t, tc.body, n)))
			if err != nil {
				t.Fatalf("%s, pieces of %d: %v", tc.reason, n, err)
			}
			if got, _ := streamed.MarshalJSON(); string(got) != string(want) {
				t.Errorf("%s, pieces of %d:\nstreamed %s\n   whole %s", tc.reason, n, got, want)
			}
		}
	}
}

// TestCaptureErrors names the JSON path or byte offset of bad input.
func TestCaptureErrors(t *testing.T) {
	for _, tc := range []struct {
		reason, body, want string
	}{
		{"not JSON", `{"output": [}`, "responses: response body is not valid JSON at offset 12"},
		{"not an object", `[1]`, "responses: response body is not a JSON object"},
		{"no output", `{"id":"resp_1","status":"completed"}`, "responses: output: want an array of output items, got nothing"},
		{"an error response", `{"error":{"message":"boom","type":"server_error"},"output":[]}`, `responses: error: the response is an error: {"message":"boom","type":"server_error"}`},
		{"a failed response", `{"status":"failed","error":null,"output":[]}`, "responses: status: the response failed"},
		{"an item that is not an object", `{"output":[` + messageItem("m", "x") + `,"oops"]}`, "responses: output.1: want an output item object, got a string"},
		{"an item without a type", `{"output":[{"id":"x"}]}`, "responses: output.0: type: want the item's type"},
		{"a call without a call_id", `{"output":[{"type":"function_call","name":"f","arguments":"{}"}]}`, "responses: output.0: function_call call_id: want a non-empty string, got nothing"},
		{"a call whose arguments are an object", `{"output":[{"type":"function_call","call_id":"c","name":"f","arguments":{}}]}`, "responses: output.0: function_call arguments: want a non-empty string, got an object"},
	} {
		_, err := responses.Dialect{}.Capture([]byte(tc.body))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.reason, err, tc.want)
		}
	}
}

// TestCaptureIncompleteKeepsItems: a response cut short (max_output_tokens)
// keeps what it has; replay then leaves a trailing reasoning item out.
func TestCaptureIncompleteKeepsItems(t *testing.T) {
	b := strings.Replace(body(messageItem("msg_a", "partial"), reasoningItem("rs_a", "cut", encA)), `"status":"completed"`, `"status":"incomplete"`, 1)
	m := capture(t, openaiRoute, b)
	if len(m.Native.Blocks) != 2 || gjson.GetBytes(m.Native.Blocks[1], "encrypted_content").Str != encA {
		t.Errorf("incomplete response: items %d", len(m.Native.Blocks))
	}
}
