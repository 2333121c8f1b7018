package bedrock_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/bedrock"
	"github.com/tidwall/gjson"
)

// Opaque values of the fixtures (made-up, in the providers' shapes).
const (
	sigA   = "EpYBCkgIBxABGAIqQfixtureA+/signature=="
	sigB   = "EqkBCkgIBxABGAIqQfixtureB/+signature=="
	blobR  = "RXFrRkNrZ0lCeEFCR0FJcVFmaXh0dXJlUg=="
	blobR2 = "RXFrRkNrZ0lCeEFCR0FJcVFmaXh0dXJlMg=="
)

// wholeCases are whole Converse responses; each is also streamed.
var wholeCases = []struct {
	name, reason, body string
}{
	{"reasoning-text", "signed reasoning then text",
		`{"output":{"message":{"role":"assistant","content":[{"reasoningContent":{"reasoningText":{"text":"Count the r's.\n3.","signature":"` + sigA + `"}}},{"text":"There are 3."}]}},"stopReason":"end_turn"}`},
	{"redacted-and-tools", "redacted blobs, reasoning and tool uses keep block order",
		`{"output":{"message":{"role":"assistant","content":[{"reasoningContent":{"redactedContent":"` + blobR + `"}},{"reasoningContent":{"reasoningText":{"text":"need the tool","signature":"` + sigB + `"}}},{"text":"Looking."},{"toolUse":{"toolUseId":"tooluse_1","name":"weather","input":{"city": "Paris"}}}]}},"stopReason":"tool_use"}`},
	{"unsigned", "an open-weight model's reasoning without signature",
		`{"output":{"message":{"role":"assistant","content":[{"text":"\n\nAnswer"},{"reasoningContent":{"reasoningText":{"text":"plain thought"}}}]}}}`},
	{"omitted", "adaptive thinking: empty text with a real signature",
		`{"output":{"message":{"role":"assistant","content":[{"reasoningContent":{"reasoningText":{"text":"","signature":"` + sigA + `"}}},{"toolUse":{"toolUseId":"t2","name":"f","input":{}}}]}}}`},
	{"unicode", "non-ASCII survives both paths",
		`{"output":{"message":{"role":"assistant","content":[{"reasoningContent":{"reasoningText":{"text":"日本 \u2028 \"q\"","signature":"` + sigA + `"}}},{"text":"✓ ok"}]}}}`},
}

// converseStreamOf turns a whole Converse response into the ConverseStream
// events Bedrock would send, splitting texts into pieces of n characters;
// reasoning is flat in deltas, signatures and blobs come last.
func converseStreamOf(t testing.TB, whole string, n int) []streamEvent {
	t.Helper()
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	pieces := func(s string) []string {
		var out []string
		r := []rune(s)
		for len(r) > n {
			out = append(out, string(r[:n]))
			r = r[n:]
		}
		return append(out, string(r))
	}
	ev := []streamEvent{{"messageStart", `{"role":"assistant"}`}}
	delta := func(i int64, d string) {
		ev = append(ev, streamEvent{"contentBlockDelta", fmt.Sprintf(`{"contentBlockIndex":%d,"delta":%s,"p":"abcdef"}`, i, d)})
	}
	gjson.Get(whole, "output.message.content").ForEach(func(k, b gjson.Result) bool {
		i := k.Int()
		switch {
		case b.Get("toolUse").Exists():
			tu := b.Get("toolUse")
			ev = append(ev, streamEvent{"contentBlockStart", fmt.Sprintf(`{"contentBlockIndex":%d,"start":{"toolUse":{"toolUseId":%s,"name":%s}}}`, i, q(tu.Get("toolUseId").Str), q(tu.Get("name").Str))})
			for _, p := range pieces(tu.Get("input").Raw) {
				delta(i, `{"toolUse":{"input":`+q(p)+`}}`)
			}
		case b.Get("reasoningContent.redactedContent").Exists():
			delta(i, `{"reasoningContent":{"redactedContent":`+q(b.Get("reasoningContent.redactedContent").Str)+`}}`)
		case b.Get("reasoningContent").Exists():
			rt := b.Get("reasoningContent.reasoningText")
			for _, p := range pieces(rt.Get("text").Str) {
				delta(i, `{"reasoningContent":{"text":`+q(p)+`}}`)
			}
			if s := rt.Get("signature").Str; s != "" {
				delta(i, `{"reasoningContent":{"signature":`+q(s)+`}}`)
			}
		case b.Get("text").Exists():
			for _, p := range pieces(b.Get("text").Str) {
				delta(i, `{"text":`+q(p)+`}`)
			}
		}
		ev = append(ev, streamEvent{"contentBlockStop", fmt.Sprintf(`{"contentBlockIndex":%d}`, i)})
		return true
	})
	return append(ev,
		streamEvent{"messageStop", `{"stopReason":"end_turn"}`},
		streamEvent{"metadata", `{"usage":{"inputTokens":1,"outputTokens":2},"metrics":{"latencyMs":1}}`})
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
	dl := bedrock.Dialect{}
	for _, tc := range wholeCases {
		whole, err := dl.Capture([]byte(tc.body))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, n := range []int{1, 4, 1 << 20} {
			frames := encodeFrames(t, converseStreamOf(t, tc.body, n))
			got, err := dl.CaptureStream(bytes.NewReader(frames))
			if err != nil {
				t.Fatalf("%s: pieces of %d: %v", tc.name, n, err)
			}
			if g, w := mustJSON(t, got), mustJSON(t, whole); g != w {
				t.Errorf("%s: %s: pieces of %d: streamed turn differs\n got: %s\nwant: %s", tc.name, tc.reason, n, g, w)
			}
		}
	}
}

func TestCaptureStoresBlocksAndItems(t *testing.T) {
	m, err := bedrock.Dialect{}.Capture([]byte(wholeCases[1].body))
	if err != nil {
		t.Fatal(err)
	}
	wantBlocks := []string{
		`{"reasoningContent":{"redactedContent":"` + blobR + `"}}`,
		`{"reasoningContent":{"reasoningText":{"text":"need the tool","signature":"` + sigB + `"}}}`,
		`{"text":"Looking."}`,
		`{"toolUse":{"toolUseId":"tooluse_1","name":"weather","input":{"city":"Paris"}}}`,
	}
	wantItems := []string{
		`{"type":"redacted_thinking","data":"` + blobR + `"}`,
		`{"type":"thinking","thinking":"need the tool","signature":"` + sigB + `"}`,
	}
	if m.Native == nil || m.Native.Dialect != engine.ModeBedrockConverse {
		t.Fatalf("native turn = %+v", m.Native)
	}
	if got := strings.Join(raws(m.Native.Blocks), "\n"); got != strings.Join(wantBlocks, "\n") {
		t.Errorf("native blocks:\n%s\nwant:\n%s", got, strings.Join(wantBlocks, "\n"))
	}
	if got := strings.Join(raws(m.ReasoningDetails), "\n"); got != strings.Join(wantItems, "\n") {
		t.Errorf("reasoning_details (Anthropic-format, block order):\n%s\nwant:\n%s", got, strings.Join(wantItems, "\n"))
	}
	if string(m.Content) != `"Looking."` || *m.ReasoningContent != "need the tool" || len(m.ToolCalls) != 1 || m.ToolCalls[0].Function.Arguments != `{"city":"Paris"}` {
		t.Errorf("standard view: %s / %v / %+v", m.Content, m.ReasoningContent, m.ToolCalls)
	}
}

func raws(rs []json.RawMessage) []string {
	var out []string
	for _, r := range rs {
		out = append(out, string(r))
	}
	return out
}

func TestCaptureErrors(t *testing.T) {
	tests := []struct {
		name, body, want, reason string
	}{
		{"not-json", `{"output":`, "not valid JSON", "a cut body is refused"},
		{"rest-error", `{"message":"The model returned the following errors: messages.1.content.0.thinking.signature: Field required"}`, "response is an error", "the REST error shape is not a turn"},
		{"no-content", `{"output":{}}`, "no output.message.content array", "the path is named"},
		{"not-object", `{"output":{"message":{"content":[1]}}}`, "output.message.content.0: not an object", "the failing block is named"},
	}
	for _, tc := range tests {
		if _, err := (bedrock.Dialect{}).Capture([]byte(tc.body)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %s: error %v, want %q", tc.name, tc.reason, err, tc.want)
		}
	}
}

func TestCaptureStreamErrors(t *testing.T) {
	good := converseStreamOf(t, wholeCases[1].body, 3)
	full := encodeFrames(t, good)
	noStop := encodeFrames(t, good[:len(good)-2])
	tests := []struct {
		name   string
		stream []byte
		want   string
		reason string
	}{
		{"no-message-stop", noStop, fmt.Sprintf("ended at offset %d before messageStop", len(noStop)), "a stream cut between frames never stores a turn"},
		{"cut-frame", full[:len(full)/2], "truncated frame", "a frame cut short is named with its offset"},
		{"empty", nil, "no frames before the end at offset 0", "an empty body is not a turn"},
		{"mixed-kinds", encodeFrames(t, []streamEvent{
			{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"text":"a"}}`},
			{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"b"}}}`},
		}), "content block 0 mixes text and reasoning", "a block is one member of the union"},
		{"no-index", encodeFrames(t, []streamEvent{{"contentBlockDelta", `{"delta":{"text":"a"}}`}}), "frame at offset 0: contentBlockDelta without contentBlockIndex", "a delta needs its index"},
		{"bad-payload", encodeFrames(t, []streamEvent{{"messageStart", `{"role":"assistant"}`}, {"contentBlockDelta", `{"contentBlockIndex":`}}), "(contentBlockDelta): payload is not valid JSON", "the frame is named"},
		{"exception", exceptionFrame(t, "validationException", `{"message":"The model returned the following errors: messages.1.content.0.thinking.signature: Field required"}`), "frame at offset 0: validationException: The model returned", "an exception frame is a refusal mid-stream"},
	}
	for _, tc := range tests {
		_, err := bedrock.Dialect{}.CaptureStream(bytes.NewReader(tc.stream))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %s: error %v, want %q", tc.name, tc.reason, err, tc.want)
		}
	}
}
