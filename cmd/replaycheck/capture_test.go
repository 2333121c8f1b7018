package main

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestCaptureGolden(t *testing.T) {
	runGolden(t, []goldenCase{
		{reason: "a whole chat.completion body", golden: "capture-chat-whole.json",
			args: []string{"capture", "testdata/responses/chat-whole.json"}},
		{reason: "the same response streamed", golden: "capture-chat-stream.json",
			args: []string{"capture", "--stream", "testdata/responses/chat-stream.sse"}},
		{reason: "a Gemini OpenAI-compatible stream: the text-turn signature goes to the private record", golden: "capture-gemini-openai-stream.json",
			args: []string{"capture", "--api-mode", "chat", "--stream", "testdata/responses/gemini-openai-stream.sse"}},
		{reason: "an Anthropic message: ordered signed blocks and the chat view", golden: "capture-anthropic.json",
			args: []string{"capture", "--api-mode", "anthropic", "testdata/responses/anthropic-whole.json"}},
		{reason: "a Gemini generateContent body: the call signature on its tool call", golden: "capture-gemini.json",
			args: []string{"capture", "--api-mode", "gemini", "testdata/responses/gemini-whole.json"}},
		{reason: "a Converse body: Anthropic-format reasoning items in block order", golden: "capture-converse.json",
			args: []string{"capture", "--api-mode", "bedrock-converse", "testdata/responses/converse-whole.json"}},
		{reason: "a Responses body: the output items in order, compacted, with the issuing route", golden: "capture-responses.json",
			args: []string{"capture", "--api-mode", "responses", "--provider", "openai", "--base-url", "https://api.openai.com/v1", "--model", "gpt-5.1", "testdata/responses/responses-whole.json"}},
		{reason: "a Responses stream without a route: the items stored for no route", golden: "capture-responses-stream.json",
			args: []string{"capture", "--api-mode", "responses", "--stream", "testdata/responses/responses-stream.sse"}},
	})
}

// TestCaptureNativeWholeEqualsStream checks SPEC §5 for every native
// dialect through the CLI: the same turn captured whole and streamed (SSE,
// or AWS event-stream frames for Converse) holds the same opaque values.
// The simulator that produced the samples gives the streamed turn another
// tool-call id (its ids hash the request), so ids are compared apart.
func TestCaptureNativeWholeEqualsStream(t *testing.T) {
	for _, tt := range []struct{ mode, whole, stream string }{
		{"anthropic", "anthropic-whole.json", "anthropic-stream.sse"},
		{"gemini", "gemini-whole.json", "gemini-stream.sse"},
		{"bedrock-converse", "converse-whole.json", "converse-stream.bin"},
		{"responses", "responses-whole.json", "responses-stream.sse"},
	} {
		whole := runMain(t, "", "capture", "--api-mode", tt.mode, "testdata/responses/"+tt.whole)
		streamed := runMain(t, "", "capture", "--api-mode", tt.mode, "--stream", "testdata/responses/"+tt.stream)
		if whole.code != 0 || streamed.code != 0 {
			t.Fatalf("%s: exit %d / %d: %s%s", tt.mode, whole.code, streamed.code, whole.stderr, streamed.stderr)
		}
		for _, key := range []string{"signature", "thought_signature", "encrypted_content", "reasoning_content"} {
			if a, b := valuesOf(whole.stdout, key), valuesOf(streamed.stdout, key); a != b || a == "" && key == "reasoning_content" {
				t.Errorf("%s: %s whole %q, streamed %q", tt.mode, key, a, b)
			}
		}
	}
}

// valuesOf joins every string value under key in a JSON document.
func valuesOf(doc, key string) string {
	var out []string
	var walk func(k string, v gjson.Result)
	walk = func(k string, v gjson.Result) {
		if v.IsObject() || v.IsArray() {
			v.ForEach(func(kk, vv gjson.Result) bool { walk(kk.String(), vv); return true })
		} else if k == key {
			out = append(out, v.String())
		}
	}
	walk("", gjson.Parse(doc))
	return strings.Join(out, "|")
}

// TestCaptureWholeEqualsStream checks SPEC §5 through the CLI: the same
// response captured whole and streamed prints the same message.
func TestCaptureWholeEqualsStream(t *testing.T) {
	whole := runMain(t, "", "capture", "testdata/responses/chat-whole.json")
	streamed := runMain(t, mustRead(t, "testdata/responses/chat-stream.sse"), "capture", "--stream", "-")
	if whole.code != 0 || streamed.code != 0 {
		t.Fatalf("exit %d / %d: %s%s", whole.code, streamed.code, whole.stderr, streamed.stderr)
	}
	if whole.stdout != streamed.stdout {
		t.Errorf("whole and streamed capture differ:\nwhole:\n%s\nstreamed:\n%s", whole.stdout, streamed.stdout)
	}
}
