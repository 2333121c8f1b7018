package gemini_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/gemini"
	"github.com/tidwall/gjson"
)

// Opaque values of the fixtures (made-up base64 in Gemini's shapes).
const (
	sigCall  = "CiQB0e2Kb+callSIG/fixture=="
	sigCall2 = "CiQB0e2Kb+secondCALL/fixture=="
	sigText  = "EpAICo0IAXLI2nx+textSIG/fixture"
)

// wholeCases are whole generateContent responses; each is also streamed.
var wholeCases = []struct {
	name, reason, body string
}{
	{"thought-and-text-signature", "group C: a thought part and a signed text part (hermes 31)",
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"**Adding**\n\nI add 389 and 2.","thought":true},{"text":"391","thoughtSignature":"` + sigText + `"}]},"finishReason":"STOP","index":0}]}`},
	{"function-call", "a signed functionCall; parallel calls sign only the first",
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"weather","args":{"city": "Paris"}},"thoughtSignature":"` + sigCall + `"},{"functionCall":{"name":"clock","args":{}}}]},"finishReason":"STOP"}]}`},
	{"call-with-id", "a functionCall that carries an id keeps it",
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"Let me check."},{"functionCall":{"id":"fc_7","name":"weather","args":{"city":"Oslo"}},"thoughtSignature":"` + sigCall2 + `"}]},"finishReason":"STOP"}]}`},
	{"plain", "no signature at all", `{"candidates":[{"content":{"role":"model","parts":[{"text":"Hello ✓"}]},"finishReason":"STOP"}]}`},
}

// streamOf turns a whole response into streamGenerateContent chunks:
// texts split into pieces of n characters, one part per chunk, and the
// text-turn signature on a trailing empty text part in the final chunk
// (the shape Gemini streams use).
func streamOf(t testing.TB, whole string, n int) string {
	t.Helper()
	var b strings.Builder
	q := func(s string) string { out, _ := json.Marshal(s); return string(out) }
	chunk := func(part string, finish bool) {
		fin := ""
		if finish {
			fin = `,"finishReason":"STOP"`
		}
		fmt.Fprintf(&b, "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[%s]}%s,\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":3}}\r\n\r\n", part, fin)
	}
	textSig := ""
	gjson.Get(whole, "candidates.0.content.parts").ForEach(func(_, p gjson.Result) bool {
		switch {
		case p.Get("functionCall").Exists():
			chunk(p.Raw, false)
		default:
			if s := p.Get("thoughtSignature").Str; s != "" {
				textSig = s
			}
			thought := ""
			if p.Get("thought").Bool() {
				thought = `,"thought":true`
			}
			r := []rune(p.Get("text").Str)
			for len(r) > 0 {
				k := min(n, len(r))
				chunk(`{"text":`+q(string(r[:k]))+thought+`}`, false)
				r = r[k:]
			}
		}
		return true
	})
	last := `{"text":""}`
	if textSig != "" {
		last = `{"text":"","thoughtSignature":` + q(textSig) + `}`
	}
	chunk(last, true)
	return b.String()
}

// arrayOf reframes an SSE stream of chunks as the JSON array Gemini sends
// without alt=sse: "[" chunk ",\r\n" chunk … "]", as the REST API
// delivers it.
func arrayOf(stream string) string {
	var chunks []string
	for _, ev := range strings.Split(stream, "\r\n\r\n") {
		if d, ok := strings.CutPrefix(ev, "data: "); ok {
			chunks = append(chunks, d)
		}
	}
	return "[" + strings.Join(chunks, ",\r\n") + "]"
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
	dl := gemini.Dialect{}
	for _, tc := range wholeCases {
		whole, err := dl.Capture([]byte(tc.body))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, n := range []int{1, 4, 1 << 20} {
			got, err := dl.CaptureStream(strings.NewReader(streamOf(t, tc.body, n)))
			if err != nil {
				t.Fatalf("%s: pieces of %d: %v", tc.name, n, err)
			}
			if g, w := mustJSON(t, got), mustJSON(t, whole); g != w {
				t.Errorf("%s: %s: pieces of %d: streamed turn differs\n got: %s\nwant: %s", tc.name, tc.reason, n, g, w)
			}
			arr, err := dl.CaptureStream(strings.NewReader("\n " + arrayOf(streamOf(t, tc.body, n)) + "\n"))
			if err != nil {
				t.Fatalf("%s: pieces of %d as a JSON array: %v", tc.name, n, err)
			}
			if g, w := mustJSON(t, arr), mustJSON(t, whole); g != w {
				t.Errorf("%s: %s: pieces of %d: the JSON-array stream (no alt=sse) differs from the whole\n got: %s\nwant: %s", tc.name, tc.reason, n, g, w)
			}
		}
	}
}

func TestCaptureStoresStandardView(t *testing.T) {
	tests := []struct {
		body, content, reasoning, textSig string
		calls                             []string // id|name|args|signature
		reason                            string
	}{
		{wholeCases[0].body, `"391"`, "**Adding**\n\nI add 389 and 2.", sigText, nil,
			"thought text is readable reasoning; the text signature goes to the record"},
		{wholeCases[1].body, "null", "", "", []string{"|weather|{\"city\":\"Paris\"}|" + sigCall, "|clock|{}|"},
			"each call keeps its own signature in extra_content; the unsigned second call has none"},
		{wholeCases[2].body, `"Let me check."`, "", "", []string{"fc_7|weather|{\"city\":\"Oslo\"}|" + sigCall2},
			"a call id from the response is kept"},
	}
	for _, tc := range tests {
		m, err := gemini.Dialect{}.Capture([]byte(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		if string(m.Content) != tc.content || deref(m.ReasoningContent) != tc.reasoning || m.NativeValues().ThoughtSignature != tc.textSig {
			t.Errorf("%s: content %s, reasoning %q, text signature %q", tc.reason, m.Content, deref(m.ReasoningContent), m.NativeValues().ThoughtSignature)
		}
		if len(m.ToolCalls) != len(tc.calls) {
			t.Fatalf("%s: %d calls", tc.reason, len(m.ToolCalls))
		}
		for i, want := range tc.calls {
			c := m.ToolCalls[i]
			id := c.ID
			if gemini.IsSyntheticID(id) {
				id = ""
			}
			if got := id + "|" + c.Function.Name + "|" + c.Function.Arguments + "|" + engine.ThoughtSignatureOf(c.ExtraContent); got != want {
				t.Errorf("%s: call %d = %s, want %s", tc.reason, i, got, want)
			}
		}
		if m.Native != nil || m.ExtraContent != nil {
			t.Errorf("%s: a Gemini turn is stored in the standard view only", tc.reason)
		}
	}
}

func TestSyntheticIDsAreStable(t *testing.T) {
	a, _ := gemini.Dialect{}.Capture([]byte(wholeCases[1].body))
	b, _ := gemini.Dialect{}.CaptureStream(strings.NewReader(streamOf(t, wholeCases[1].body, 2)))
	if a.ToolCalls[0].ID != b.ToolCalls[0].ID || a.ToolCalls[0].ID == a.ToolCalls[1].ID || !gemini.IsSyntheticID(a.ToolCalls[0].ID) {
		t.Errorf("synthetic ids: %s %s / %s", a.ToolCalls[0].ID, a.ToolCalls[1].ID, b.ToolCalls[0].ID)
	}
}

func TestCaptureErrors(t *testing.T) {
	tests := []struct {
		name, body, want, reason string
	}{
		{"not-json", `{"candidates":`, "not valid JSON", "a cut body is refused"},
		{"error", `{"error":{"code":400,"message":"Function call is missing a thought_signature in functionCall parts.","status":"INVALID_ARGUMENT"}}`, "response is an error", "the native error envelope"},
		{"error-array", `[{"error":{"code":400,"message":"x","status":"INVALID_ARGUMENT"}}]`, "response is an error", "the array-wrapped envelope"},
		{"blocked", `{"promptFeedback":{"blockReason":"SAFETY"}}`, "prompt blocked: SAFETY", "a blocked prompt has no candidate"},
		{"no-candidates", `{}`, "no candidates", "nothing to capture"},
	}
	for _, tc := range tests {
		if _, err := (gemini.Dialect{}).Capture([]byte(tc.body)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %s: error %v, want %q", tc.name, tc.reason, err, tc.want)
		}
	}
}

func TestCaptureStreamErrors(t *testing.T) {
	good := streamOf(t, wholeCases[0].body, 3)
	cut := good[:strings.LastIndex(good, "data: ")]
	first := "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}]}\n\n"
	tests := []struct {
		name, stream, want, reason string
	}{
		{"truncated", cut, fmt.Sprintf("ended at offset %d before a finishReason", len(cut)), "a stream cut before its last chunk is not stored"},
		{"empty", "", "no chunks before the end at offset 0", "an empty body"},
		{"bad-json", first + "data: {oops\n\n", fmt.Sprintf("event at offset %d: data is not valid JSON", len(first)), "the broken event's offset"},
		{"error-chunk", first + `data: {"error":{"code":500,"message":"internal"}}` + "\n\n", fmt.Sprintf("event at offset %d is an error", len(first)), "an error chunk ends the capture"},
		{"array-truncated", arrayOf(good)[:len(arrayOf(good))-1], fmt.Sprintf("chunk array ended at offset %d before its closing bracket (truncated)", len(arrayOf(good))-1), "a JSON-array stream cut before its bracket"},
		{"array-cut-chunk", arrayOf(good)[:40], "chunk array ended inside the chunk at offset 1 (truncated)", "a JSON-array stream cut inside a chunk"},
		{"array-no-finish", arrayOf(cut), "before a finishReason (truncated)", "a JSON-array stream whose last chunk is missing"},
		{"array-trailing", arrayOf(good) + "x", "something follows its closing bracket", "bytes after the array"},
		{"array-bad-element", "[" + `{"candidates":[{"content":{"parts":[{"text":"a"}]}}]},oops]`, "chunk array: element at offset", "an element that is not JSON"},
		{"array-empty", "[]", "no chunks before the end at offset 2", "an empty chunk array"},
		{"bad-args", `data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"a":}}}]},"finishReason":"STOP"}]}` + "\n\n", "event at offset 0: data is not valid JSON", "invalid call arguments"},
	}
	for _, tc := range tests {
		if _, err := (gemini.Dialect{}).CaptureStream(strings.NewReader(tc.stream)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %s: error %v, want %q", tc.name, tc.reason, err, tc.want)
		}
	}
}
