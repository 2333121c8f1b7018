package anthropic_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/anthropic"
	"github.com/tidwall/gjson"
)

// Opaque values of the fixtures: made-up base64 in the shapes Anthropic
// issues.
const (
	sigA  = "EqQBCkgIBxABGAIqQJ2rPp7Dh+fixtureA/signature=="
	sigB  = "EuYBCkgIBxABGAIqQKfixtureB+signature/with+slashes=="
	sigC  = "ErUBCkYIBRgCIkCfixtureC"
	dataR = "EmwKAhgBEgy3fixture+redacted/data=="
)

// wholeCases are whole Messages responses; each is also streamed.
var wholeCases = []struct {
	name, reason, body string
}{
	{"thinking-text", "the common shape: one signed thinking block, then text",
		`{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"thinking","thinking":"Let me think.\nStep \"one\".","signature":"` + sigA + `"},{"type":"text","text":"Answer: 42"}],"stop_reason":"end_turn"}`},
	{"interleaved-tools", "interleaved thinking: each step's thinking stays before its tool_use",
		`{"content":[{"type":"thinking","thinking":"need weather","signature":"` + sigA + `"},{"type":"text","text":"Checking."},{"type":"tool_use","id":"toolu_1","name":"weather","input":{"city": "Paris", "units":"c"}},{"type":"thinking","thinking":"and time","signature":"` + sigB + `"},{"type":"tool_use","id":"toolu_2","name":"clock","input":{}}]}`},
	{"redacted", "redacted_thinking is kept whole, in order",
		`{"content":[{"type":"redacted_thinking","data":"` + dataR + `"},{"type":"thinking","thinking":"","signature":"` + sigC + `"},{"type":"text","text":"ok"}]}`},
	{"omitted-thinking", "a signed block with omitted (empty) thinking keeps its signature",
		`{"content":[{"type":"thinking","thinking":"","signature":"` + sigC + `"},{"type":"tool_use","id":"toolu_9","name":"f","input":{"a":[1,2,{"b":null}]}}]}`},
	{"unsigned", "an Anthropic-compatible endpoint's thinking without a signature",
		`{"content":[{"type":"thinking","thinking":"plain thought"},{"type":"text","text":"hi"}]}`},
	{"unicode", "non-ASCII text and escapes survive both paths",
		`{"content":[{"type":"thinking","thinking":"héllo \u2028 \\ \"q\" 日本","signature":"` + sigA + `"},{"type":"text","text":"✓\t</script>"}]}`},
	{"empty", "a turn with no content", `{"content":[]}`},
	{"compaction", "a context-management run: the compaction block's summary and encrypted content stream in compaction_delta pieces and go back whole",
		`{"content":[{"type":"compaction","content":"Earlier: the user asked for tide times; Brest was chosen.","encrypted_content":"` + dataR + `"},{"type":"thinking","thinking":"Now the hour.","signature":"` + sigA + `"},{"type":"text","text":"High tide is at 14:05."}],"context_management":{"applied_edits":[{"type":"clear_thinking_20251015","cleared_thinking_turns":2,"cleared_input_tokens":1800}]}}`},
}

// streamOf turns a whole response into the SSE stream Anthropic would send
// for it, splitting every text, thinking and tool input into pieces of n
// characters, signatures last (signature_delta before content_block_stop).
func streamOf(t testing.TB, whole string, n int) string {
	t.Helper()
	var b strings.Builder
	ev := func(name string, data string) { fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", name, data) }
	q := func(s string) string { out, _ := json.Marshal(s); return string(out) }
	pieces := func(s string) []string { // n runes each: providers split on characters
		var out []string
		r := []rune(s)
		for len(r) > n {
			out = append(out, string(r[:n]))
			r = r[n:]
		}
		return append(out, string(r))
	}
	ev("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[]}}`)
	b.WriteString(": keep-alive comment\n\n")
	gjson.Get(whole, "content").ForEach(func(k, blk gjson.Result) bool {
		i := k.Int()
		switch blk.Get("type").Str {
		case "thinking":
			ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"thinking","thinking":"","signature":""}}`, i))
			for _, p := range pieces(blk.Get("thinking").Str) {
				ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"thinking_delta","thinking":%s}}`, i, q(p)))
			}
			if s := blk.Get("signature").Str; s != "" {
				ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"signature_delta","signature":%s}}`, i, q(s)))
			}
		case "text":
			ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"text","text":""}}`, i))
			for _, p := range pieces(blk.Get("text").Str) {
				ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%s}}`, i, q(p)))
			}
		case "tool_use":
			ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":%s,"name":%s,"input":{}}}`, i, q(blk.Get("id").Str), q(blk.Get("name").Str)))
			for _, p := range pieces(blk.Get("input").Raw) {
				ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%s}}`, i, q(p)))
			}
		case "compaction":
			// content_block_start carries nulls; compaction_delta events the
			// pieces (the shape Anthropic streams compaction blocks in)
			ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"compaction","content":null,"encrypted_content":null}}`, i))
			for _, p := range pieces(blk.Get("content").Str) {
				ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"compaction_delta","content":%s,"encrypted_content":null}}`, i, q(p)))
			}
			ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"compaction_delta","encrypted_content":%s}}`, i, q(blk.Get("encrypted_content").Str)))
		default:
			ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":%s}`, i, blk.Raw))
		}
		ev("ping", `{"type": "ping"}`)
		ev("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
		return true
	})
	cm := ""
	if v := gjson.Get(whole, "context_management"); v.Exists() {
		cm = `,"context_management":` + v.Raw // as Anthropic streams it, on message_delta
	}
	ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9}`+cm+`}`)
	ev("message_stop", `{"type":"message_stop"}`)
	return b.String()
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCaptureWholeAndStreamAgree(t *testing.T) {
	dl := anthropic.Dialect{}
	for _, tc := range wholeCases {
		t.Run(tc.name, func(t *testing.T) {
			whole, err := dl.Capture([]byte(tc.body))
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			want := mustJSON(t, whole)
			for _, n := range []int{1, 3, 1 << 20} {
				got, err := dl.CaptureStream(strings.NewReader(streamOf(t, tc.body, n)))
				if err != nil {
					t.Fatalf("%s: pieces of %d: %v", tc.reason, n, err)
				}
				if g := mustJSON(t, got); g != want {
					t.Errorf("%s: pieces of %d: streamed turn differs\n got: %s\nwant: %s", tc.reason, n, g, want)
				}
			}
		})
	}
}

func TestCaptureStoresOrderedBlocksAndStandardView(t *testing.T) {
	m, err := anthropic.Dialect{}.Capture([]byte(wholeCases[1].body))
	if err != nil {
		t.Fatal(err)
	}
	wantBlocks := []string{
		`{"type":"thinking","thinking":"need weather","signature":"` + sigA + `"}`,
		`{"type":"text","text":"Checking."}`,
		`{"type":"tool_use","id":"toolu_1","name":"weather","input":{"city":"Paris","units":"c"}}`,
		`{"type":"thinking","thinking":"and time","signature":"` + sigB + `"}`,
		`{"type":"tool_use","id":"toolu_2","name":"clock","input":{}}`,
	}
	if m.Native == nil || m.Native.Dialect != engine.ModeAnthropic || len(m.Native.Blocks) != len(wantBlocks) {
		t.Fatalf("native turn = %+v", m.Native)
	}
	for i, w := range wantBlocks {
		if string(m.Native.Blocks[i]) != w {
			t.Errorf("block %d = %s, want %s", i, m.Native.Blocks[i], w)
		}
	}
	if string(m.Content) != `"Checking."` || deref(m.ReasoningContent) != "need weather\n\nand time" {
		t.Errorf("standard view: content %s, reasoning %q", m.Content, deref(m.ReasoningContent))
	}
	if len(m.ToolCalls) != 2 || m.ToolCalls[0].ID != "toolu_1" || m.ToolCalls[0].Function.Arguments != `{"city":"Paris","units":"c"}` || m.ToolCalls[1].Function.Arguments != "{}" {
		t.Errorf("tool calls = %+v", m.ToolCalls)
	}
	if m.ReasoningDetails != nil {
		t.Errorf("an Anthropic turn keeps its thinking in the native blocks only, got reasoning_details %s", m.ReasoningDetails)
	}
}

func TestCaptureErrors(t *testing.T) {
	tests := []struct {
		name, body, want, reason string
	}{
		{"not-json", `{"content":[`, "not valid JSON", "a cut body is refused"},
		{"error-envelope", `{"type":"error","error":{"type":"invalid_request_error","message":"messages.1.content.0: Invalid ` + "`signature`" + ` in ` + "`thinking`" + ` block"}}`, "response is an error", "an error body is not a turn"},
		{"no-content", `{"id":"msg"}`, "no content array", "a body without content is refused"},
		{"block-not-object", `{"content":["x"]}`, "content.0: not an object", "the failing block is named"},
		{"bad-tool-input", `{"content":[{"type":"tool_use","id":"t","name":"f","input":"{"}]}`, "", "a string input is kept as a JSON value"},
	}
	for _, tc := range tests {
		_, err := anthropic.Dialect{}.Capture([]byte(tc.body))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %s: unexpected error %v", tc.name, tc.reason, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %s: error %v, want %q", tc.name, tc.reason, err, tc.want)
		}
	}
}

func TestCaptureStreamErrors(t *testing.T) {
	good := streamOf(t, wholeCases[1].body, 4)
	cut := good[:strings.LastIndex(good, "event: message_stop")]
	start := "event: message_start\ndata: {\"type\":\"message_start\"}\n\n"
	block := "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
	tests := []struct {
		name, stream, want, reason string
	}{
		{"truncated", cut, fmt.Sprintf("ended at offset %d before message_stop", len(cut)), "a stream cut before message_stop never stores a turn"},
		{"truncated-before-signature", good[:strings.Index(good, "signature_delta")-80], "before message_stop", "a block whose signature never arrived is never stored"},
		{"empty", "", "no events before the end at offset 0", "an empty body is not a turn"},
		{"bad-json", start + "data: {nope\n\n", fmt.Sprintf("event at offset %d: data is not valid JSON", len(start)), "the offset of the broken event is named"},
		{"unknown-index", "data: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}\n\n", "event at offset 0: delta for content block 3 that never started", "a delta needs its block"},
		{"twice", block + block, fmt.Sprintf("offset %d: content block 0 started twice", len(block)), "an index starts once"},
		{"mismatched-delta", block + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"x\"}}\n\n", "signature_delta on a text block", "a signature only lands on a thinking block"},
		{"error-event", "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n", "event at offset 0 is an error", "an error event ends the capture"},
	}
	for _, tc := range tests {
		_, err := anthropic.Dialect{}.CaptureStream(strings.NewReader(tc.stream))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %s: error %v, want %q", tc.name, tc.reason, err, tc.want)
		}
	}
}

// bedrockStream frames an SSE stream's events the way Bedrock's
// InvokeModelWithResponseStream does: "chunk" events whose payload holds
// the event JSON base64-encoded.
func bedrockStream(t testing.TB, sse string) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := eventstream.NewEncoder()
	for _, line := range strings.Split(sse, "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var hs eventstream.Headers
		hs.Set(":event-type", eventstream.StringValue("chunk"))
		hs.Set(":message-type", eventstream.StringValue("event"))
		payload := `{"bytes":"` + base64.StdEncoding.EncodeToString([]byte(data)) + `"}`
		if err := enc.Encode(&buf, eventstream.Message{Headers: hs, Payload: []byte(payload)}); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

func TestCaptureBedrockInvokeStream(t *testing.T) {
	dl := anthropic.Dialect{}
	for _, tc := range wholeCases {
		whole, err := dl.Capture([]byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		frames := bedrockStream(t, streamOf(t, tc.body, 5))
		got, err := dl.CaptureStream(bytes.NewReader(frames))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if mustJSON(t, got) != mustJSON(t, whole) {
			t.Errorf("%s: %s: the InvokeModel stream stores a different turn", tc.name, tc.reason)
		}
		// A frame cut short is refused with its offset.
		if _, err := dl.CaptureStream(bytes.NewReader(frames[:len(frames)-7])); err == nil || !strings.Contains(err.Error(), "offset") {
			t.Errorf("%s: truncated frames: error %v, want one naming the offset", tc.name, err)
		}
	}
}
