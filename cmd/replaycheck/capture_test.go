package main

import "testing"

func TestCaptureGolden(t *testing.T) {
	runGolden(t, []goldenCase{
		{reason: "a whole chat.completion body", golden: "capture-chat-whole.json",
			args: []string{"capture", "testdata/responses/chat-whole.json"}},
		{reason: "the same response streamed", golden: "capture-chat-stream.json",
			args: []string{"capture", "--stream", "testdata/responses/chat-stream.sse"}},
		{reason: "a Gemini OpenAI-compatible stream: the text-turn signature goes to the private record", golden: "capture-gemini-openai-stream.json",
			args: []string{"capture", "--api-mode", "chat", "--stream", "testdata/responses/gemini-openai-stream.sse"}},
	})
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
