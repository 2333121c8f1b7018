package gemini

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine/internal/layout"
	"github.com/tidwall/gjson"
)

// TestOnlyText checks which candidates are one text part and nothing else:
// only their chunks give a layout to later chunks.
func TestOnlyText(t *testing.T) {
	for _, tc := range []struct {
		reason, cand string
		text         string
		thought, ok  bool
	}{
		{"an answer part", `{"content":{"parts":[{"text":"hi"}],"role":"model"},"index":0}`, "hi", false, true},
		{"a thought part", `{"content":{"parts":[{"text":"hm","thought":true}],"role":"model"}}`, "hm", true, true},
		{"thought false is an answer", `{"content":{"parts":[{"text":"a","thought":false}]}}`, "a", false, true},
		{"a finish reason", `{"content":{"parts":[{"text":"a"}]},"finishReason":"STOP"}`, "", false, false},
		{"a signed part", `{"content":{"parts":[{"text":"a","thoughtSignature":"c2ln"}]}}`, "", false, false},
		{"a function call", `{"content":{"parts":[{"functionCall":{"name":"f","args":{}}}]}}`, "", false, false},
		{"two parts", `{"content":{"parts":[{"text":"a","thought":true},{"text":"b"}]}}`, "", false, false},
		{"two content keys", `{"content":{"parts":[{"text":"a"}]},"content":{"parts":[{"text":"b"}]}}`, "", false, false},
		{"two parts keys", `{"content":{"parts":[{"text":"a"}],"parts":[{"text":"b"}]}}`, "", false, false},
		{"two text keys", `{"content":{"parts":[{"text":"a","text":"b"}]}}`, "", false, false},
		{"a text that is not a string", `{"content":{"parts":[{"text":1}]}}`, "", false, false},
	} {
		text, thought, ok := onlyText(gjson.Parse(tc.cand))
		if ok != tc.ok || thought != tc.thought || text.Str != tc.text {
			t.Errorf("%s: onlyText(%s) = %q %v %v, want %q %v %v", tc.reason, tc.cand, text.Str, thought, ok, tc.text, tc.thought, tc.ok)
		}
	}
}

// chunk frames one candidate as a stream chunk with the usage counts and
// ids Gemini sends on every chunk.
func chunk(cand string, tokens int) string {
	usage, _ := json.Marshal(map[string]int{"promptTokenCount": 34, "totalTokenCount": 34 + tokens})
	return `{"candidates": [` + cand + `],"usageMetadata": ` + string(usage) + `,"modelVersion": "gemini-2.5-pro","responseId": "beHB"}`
}

// events frames chunks as an SSE stream.
func events(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\r\n\r\n")
	}
	return b.String()
}

// TestLayoutsAreLearntAndMatched checks that chunks whose usage counts
// change are still read by layout, and that a finishing chunk is not.
func TestLayoutsAreLearntAndMatched(t *testing.T) {
	thought := func(s string) string {
		return `{"content": {"parts": [{"text": "` + s + `","thought": true}],"role": "model"},"index": 0}`
	}
	known := layout.NewCache[bool](chunkReads...)
	m, err := captureStream(strings.NewReader(events(
		chunk(thought("one "), 1), chunk(thought("two"), 2),
		chunk(`{"content": {"parts": [{"text": "done"}],"role": "model"},"finishReason": "STOP","index": 0}`, 3),
	)), known)
	if err != nil {
		t.Fatal(err)
	}
	if string(m.Content) != `"done"` || !strings.Contains(string(mustMarshal(t, m)), "one two") {
		t.Fatalf("captured %s, want the thoughts \"one two\" and the answer \"done\"", mustMarshal(t, m))
	}
	for _, tc := range []struct {
		data  string
		match bool
	}{
		{chunk(thought("three"), 40), true},
		{chunk(thought("three"), 40)[:len(chunk(thought("three"), 40))-1] + `,"error":{"code":500}}`, false},
		{chunk(`{"content": {"parts": [{"text": "x"}],"role": "model"},"finishReason": "STOP","index": 0}`, 5), false},
	} {
		if _, _, ok := known.Match([]byte(tc.data)); ok != tc.match {
			t.Errorf("Match(%s) = %v, want %v", tc.data, ok, tc.match)
		}
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzLayoutsAgree checks that reading chunks by layout never changes the
// captured message or error: a stream of chunks (one per line of the fuzz
// input) is captured with and without layouts.
func FuzzLayoutsAgree(f *testing.F) {
	f.Add(strings.Join([]string{
		chunk(`{"content": {"parts": [{"text": "a","thought": true}]}}`, 1),
		chunk(`{"content": {"parts": [{"text": "b\n","thought": true}]}}`, 2),
		chunk(`{"content": {"parts": [{"text": "c"}]}}`, 3),
		chunk(`{"content": {"parts": [{"text": "d"}]},"finishReason": "STOP"}`, 4),
	}, "\n"))
	f.Fuzz(func(t *testing.T, input string) {
		stream := events(strings.Split(strings.ReplaceAll(input, "\r", ""), "\n")...)
		want, wantErr := captureStream(strings.NewReader(stream), nil)
		got, gotErr := captureStream(strings.NewReader(stream), layout.NewCache[bool](chunkReads...))
		if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
			t.Fatalf("with layouts: %v; without: %v", gotErr, wantErr)
		}
		if wantErr == nil && string(mustMarshal(t, want)) != string(mustMarshal(t, got)) {
			t.Fatalf("with layouts: %s\nwithout: %s", mustMarshal(t, got), mustMarshal(t, want))
		}
	})
}
