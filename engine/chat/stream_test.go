package chat

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine/internal/layout"
	"github.com/tidwall/gjson"
)

// events frames chunks as an SSE stream ending in [DONE].
func events(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\n\n")
	}
	return b.String() + "data: [DONE]\n\n"
}

// TestTextPiece checks which deltas are one piece of text and nothing
// else: only those may give their chunk's layout to later chunks.
func TestTextPiece(t *testing.T) {
	for _, tc := range []struct {
		reason, delta, field, piece string
	}{
		{"one content piece", `{"content":"hi"}`, "content", "hi"},
		{"a role beside it is ignored by the capture", `{"role":"assistant","reasoning_content":"think"}`, "reasoning_content", "think"},
		{"empty and null carriers beside it add nothing", `{"content":"","reasoning":null,"reasoning_text":"r"}`, "reasoning_text", "r"},
		{"two pieces", `{"content":"a","reasoning":"b"}`, "", ""},
		{"an empty piece alone is no piece", `{"content":""}`, "", ""},
		{"content parts", `{"content":[{"type":"text","text":"x"}],"reasoning":"b"}`, "", ""},
		{"reasoning details beside it", `{"reasoning":"b","reasoning_details":[{"type":"reasoning.text","text":"b"}]}`, "", ""},
		{"a tool call beside it", `{"content":"a","tool_calls":[{"index":0}]}`, "", ""},
		{"an opaque value beside it", `{"content":"a","reasoning_opaque":"x"}`, "", ""},
		{"a thought signature beside it", `{"content":"a","extra_content":{"google":{"thought_signature":"s"}}}`, "", ""},
		{"null extras add nothing", `{"content":"a","tool_calls":null,"extra_content":null}`, "content", "a"},
	} {
		field, piece := textPiece(gjson.Parse(tc.delta))
		if field != tc.field || piece.Str != tc.piece || (tc.field != "") != piece.Exists() {
			t.Errorf("%s: textPiece(%s) = %q %q, want %q %q", tc.reason, tc.delta, field, piece.Str, tc.field, tc.piece)
		}
	}
}

// TestLayoutsAreLearntAndMatched checks that a stream's repeated chunks
// are read by layout, the ignored end of a chunk may vary, and a chunk
// that differs where the capture reads takes the general path.
func TestLayoutsAreLearntAndMatched(t *testing.T) {
	head := `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":`
	stream := events(
		head+`{"role":"assistant","reasoning_content":"one "},"finish_reason":null}]}`,
		head+`{"role":"assistant","reasoning_content":"two "},"finish_reason":null}],"obfuscation":"xy"}`,
		head+`{"content":"answer"},"finish_reason":null}]}`,
		head+`{"content":" more"},"finish_reason":null}]}`,
		head+`{"content":"!"},"finish_reason":"stop"}]}`,
	)
	known := layout.NewCache[string](chunkReads...)
	m, err := captureStream(strings.NewReader(stream), known)
	if err != nil {
		t.Fatal(err)
	}
	if *m.ReasoningContent != "one two " || string(m.Content) != `"answer more!"` {
		t.Fatalf("captured reasoning %q and content %s", *m.ReasoningContent, m.Content)
	}
	for _, tc := range []struct {
		data  string
		match bool
	}{
		{head + `{"role":"assistant","reasoning_content":"three"},"finish_reason":null}]}`, true},
		{head + `{"content":"x"},"finish_reason":null}],"usage":{"total_tokens":9}}`, true},
		{strings.Replace(head, `"index":0`, `"index":1`, 1) + `{"content":"x"},"finish_reason":null}]}`, false},
		{head + `{"content":"x"},"finish_reason":null}],"error":{"message":"no"}}`, false},
	} {
		if _, _, ok := known.Match([]byte(tc.data)); ok != tc.match {
			t.Errorf("Match(%s) = %v after the stream, want %v", tc.data, ok, tc.match)
		}
	}
}

// FuzzLayoutsAgree checks that reading chunks by layout never changes the
// captured message or error: a stream of chunks (one per line of the fuzz
// input) is captured with and without layouts.
func FuzzLayoutsAgree(f *testing.F) {
	head := `{"id":"c","choices":[{"index":0,"delta":`
	f.Add(strings.Join([]string{
		head + `{"reasoning_content":"a"}}]}`,
		head + `{"reasoning_content":"b\n"}}],"x":1}`,
		head + `{"reasoning_content":"c","content":"d"}}]}`,
		head + `{"content":"e"},"finish_reason":null}]}`,
		head + `{"content":"f"},"finish_reason":null}],"choices":[]}`,
		head + `{"content":"g"},"finish_reason":null}]`,
	}, "\n"))
	f.Fuzz(func(t *testing.T, input string) {
		var chunks []string
		for _, line := range strings.Split(input, "\n") {
			chunks = append(chunks, strings.ReplaceAll(line, "\r", ""))
		}
		stream := events(chunks...)
		want, wantErr := captureStream(strings.NewReader(stream), nil)
		got, gotErr := captureStream(strings.NewReader(stream), layout.NewCache[string](chunkReads...))
		if (wantErr == nil) != (gotErr == nil) {
			t.Fatalf("with layouts: %v; without: %v", gotErr, wantErr)
		}
		if wantErr != nil {
			return
		}
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(got)
		if string(w) != string(g) {
			t.Fatalf("with layouts: %s\nwithout: %s", g, w)
		}
	})
}

// TestStreamThinkingParts captures a stream shaped as Mistral streams its
// thinking (content arrays of thinking pieces, then string deltas): the
// pieces join into one thinking part and the text into one text part, in
// the layout of their first piece, and the message equals the same answer
// captured whole.
func TestStreamThinkingParts(t *testing.T) {
	chunk := func(delta string) string {
		return `data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":` + delta + `,"finish_reason":null}]}` + "\n\n"
	}
	stream := chunk(`{"role":"assistant","content":""}`) +
		chunk(`{"content":[{"type":"thinking","thinking":[{"type":"text","text":"Okay"}]}]}`) +
		chunk(`{"content":[{"type":"thinking","thinking":[{"type":"text","text":", the \"user\""}]}]}`) +
		chunk(`{"content":"Cross"}`) + chunk(`{"content":" safely."}`) +
		`data: {"choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"
	content := `[{"type":"thinking","thinking":[{"type":"text","text":"Okay, the \"user\""}]},{"type":"text","text":"Cross safely."}]`
	got, err := Dialect{}.CaptureStream(strings.NewReader(stream))
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Content) != content {
		t.Errorf("streamed content\n got  %s\n want %s", got.Content, content)
	}
	whole, err := Dialect{}.Capture([]byte(`{"choices":[{"index":0,"message":{"role":"assistant","content":` + content + `},"finish_reason":"stop"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := got.MarshalJSON()
	b, _ := whole.MarshalJSON()
	if string(a) != string(b) {
		t.Errorf("whole and streamed differ:\n stream %s\n whole  %s", a, b)
	}
	// Text before the first array is the first text part, and parts that
	// are neither thinking nor text pass as they came.
	mixed := chunk(`{"content":"Pre"}`) + chunk(`{"content":[{"type":"image_url","image_url":{"url":"u"}},{"type":"text","text":"a"}]}`) + chunk(`{"content":"b"}`) +
		`data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n"
	got, err = Dialect{}.CaptureStream(strings.NewReader(mixed))
	if want := `[{"type":"text","text":"Pre"},{"type":"image_url","image_url":{"url":"u"}},{"type":"text","text":"ab"}]`; err != nil || string(got.Content) != want {
		t.Errorf("mixed content %s (%v), want %s", got.Content, err, want)
	}
}
