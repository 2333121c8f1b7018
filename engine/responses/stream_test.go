package responses_test

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine/responses"
)

// sse frames data payloads as "data:" events.
func sse(payloads ...string) string {
	var b strings.Builder
	for _, p := range payloads {
		b.WriteString("data: " + p + "\n\n")
	}
	return b.String()
}

const (
	added0 = `{"type":"response.output_item.added","output_index":0,"item":{"id":"msg_a","type":"message","status":"in_progress","content":[],"role":"assistant"}}`
	delta0 = `{"type":"response.output_text.delta","item_id":"msg_a","output_index":0,"content_index":0,"delta":"hi"}`
	done0  = `{"type":"response.output_item.done","output_index":0,"item":{"id":"msg_a","type":"message","status":"completed","content":[{"type":"output_text","annotations":[],"text":"hi"}],"role":"assistant"}}`
)

var completedEmpty = `{"type":"response.completed","response":{"id":"r","status":"completed","error":null,"output":[]}}`

// TestStreamErrors names the byte offset of the event in play.
func TestStreamErrors(t *testing.T) {
	for _, tc := range []struct {
		reason, stream, want string
	}{
		{"an empty stream", "", "responses: stream: no events before the end at offset 0"},
		{"a stream cut before response.completed", sse(added0, delta0), "responses: stream: ended at offset 267 before response.completed (truncated)"},
		{"an event that is not JSON", sse(added0, `{"type":"response.output_text.delta",`), "responses: stream: event at offset 156: data is not valid JSON"},
		{"a delta for an item never added", sse(delta0), "responses: stream: event at offset 0: response.output_text.delta for output item 0, which is not open"},
		{"a delta after its item finished", sse(added0, done0, delta0), "responses: stream: event at offset 360: response.output_text.delta for output item 0, which is not open"},
		{"an item done without being added", sse(done0), "responses: stream: event at offset 0: output item 0 done without being added"},
		{"an item added twice", sse(added0, added0), "responses: stream: event at offset 156: output item 0 added twice"},
		{"an item added without a type", sse(`{"type":"response.output_item.added","output_index":0,"item":{}}`), "responses: stream: event at offset 0: item: type: want the item's type"},
		{"a negative output index", sse(`{"type":"response.output_item.added","output_index":-1,"item":{"type":"message"}}`), "responses: stream: event at offset 0: output_index: want a non-negative integer, got a number"},
		{"an error event", sse(added0, `{"type":"error","code":"server_error","message":"boom"}`), `responses: stream: event at offset 156 is an error: {"type":"error","code":"server_error","message":"boom"}`},
		{"a failed response", sse(`{"type":"response.failed","response":{"status":"failed","error":{"code":"server_error"}}}`), `responses: stream: event at offset 0: the response failed: {"code":"server_error"}`},
		{"a completed response without an object", sse(`{"type":"response.completed"}`), "responses: stream: event at offset 0: response.completed without a response object"},
		{"a completed response whose output is bad", sse(`{"type":"response.completed","response":{"output":[7]}}`), "responses: stream: event at offset 0: response.output.0: want an output item object, got a number"},
		{"an item never finished, and no final output", sse(added0, delta0, completedEmpty), "responses: stream: output item 0 never finished, and the final response before the end at offset 372 has no output"},
		{"a finished call without a call_id", sse(`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call"}}`,
			`{"type":"response.output_item.done","output_index":0,"item":{"type":"function_call","name":"f","arguments":"{}"}}`, completedEmpty),
			"responses: stream ending at offset 320: output.0: function_call call_id: want a non-empty string, got nothing"},
	} {
		_, err := responses.Dialect{}.CaptureStream(strings.NewReader(tc.stream))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.reason, err, tc.want)
		}
	}
}

// TestStreamFinalResponseWins: OpenRouter's finished reasoning item lacks
// the signature its final response carries (realdata
// openrouter/responses-stream-claude37-reasoning); the final response is
// what a whole capture sees, so it wins. Without a final output the
// finished items count, in output_index order.
func TestStreamFinalResponseWins(t *testing.T) {
	signed := `{"type":"reasoning","id":"rs_final","summary":[],"content":[{"type":"reasoning_text","text":"Paris."}],"signature":"ErkB+/=="}`
	stream := sse(
		`{"type":"response.output_item.added","output_index":0,"item":{"type":"reasoning","id":"rs_tmp","summary":[]}}`,
		`{"type":"response.reasoning_text.delta","output_index":0,"item_id":"rs_tmp","content_index":0,"delta":"Paris."}`,
		`{"type":"response.output_item.done","output_index":0,"item":{"type":"reasoning","id":"rs_tmp","summary":[],"content":[{"type":"reasoning_text","text":"Paris."}]}}`,
		`{"type":"response.completed","response":{"status":"completed","output":[`+signed+`]}}`,
	) + "data: [DONE]\n\n"
	m, err := responses.Dialect{}.CaptureStream(strings.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Native.Blocks) != 1 || string(m.Native.Blocks[0]) != signed {
		t.Errorf("items %s: want the final response's signed item", m.Native.Blocks)
	}
	// Finished items, out of order, and no final output.
	added1 := strings.ReplaceAll(strings.ReplaceAll(added0, `"output_index":0`, `"output_index":1`), "msg_a", "msg_b")
	done1 := strings.ReplaceAll(strings.ReplaceAll(done0, `"output_index":0`, `"output_index":1`), "msg_a", "msg_b")
	m, err = responses.Dialect{}.CaptureStream(strings.NewReader(sse(added1, added0, done1, done0, completedEmpty)))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Native.Blocks) != 2 || !strings.Contains(string(m.Native.Blocks[0]), "msg_a") || string(m.Content) != `"hi\nhi"` {
		t.Errorf("items %s, content %s: want the finished items in output_index order", m.Native.Blocks, m.Content)
	}
}
