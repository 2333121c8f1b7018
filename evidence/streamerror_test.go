package evidence

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/report"
)

// A Groq tool round trip written for this test. The first stream begins
// 200 and ends in an error event, as Groq ends a stream whose tool call
// failed validation (the shape groq/groq-python PR 119 reads, with the
// envelope of the tool_use_failed body in providers/groq.yaml); the client
// retries the same request and replays the retry's tool turn.
const (
	groqURL   = "https://api.groq.com/openai/v1/chat/completions"
	groqTurn1 = `{"model":"openai/gpt-oss-120b","stream":true,"messages":[{"role":"user","content":"Book the 9:40 ferry."}],"tools":[{"type":"function","function":{"name":"book","parameters":{"type":"object","properties":{"sailing":{"type":"string"}},"required":["sailing"]}}}]}`
	groqError = "data: {\"id\":\"chatcmpl-g1\",\"object\":\"chat.completion.chunk\",\"model\":\"openai/gpt-oss-120b\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"reasoning\":\"Book it.\"},\"finish_reason\":null}]}\n\n" +
		"event: error\ndata: {\"error\":{\"message\":\"Tool call validation failed: parameters for tool book did not match schema: errors: [missing properties: 'sailing']\",\"type\":\"invalid_request_error\",\"code\":\"tool_use_failed\",\"failed_generation\":\"{\\\"name\\\": \\\"book\\\"}\"}}\n\n"
	groqRetry = "data: {\"id\":\"chatcmpl-g2\",\"object\":\"chat.completion.chunk\",\"model\":\"openai/gpt-oss-120b\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"reasoning\":\"Book the 9:40.\"},\"finish_reason\":null}]}\n\n" +
		"data: {\"id\":\"chatcmpl-g2\",\"object\":\"chat.completion.chunk\",\"model\":\"openai/gpt-oss-120b\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":\"book\",\"arguments\":\"{\\\"sailing\\\":\\\"9:40\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n" +
		"data: [DONE]\n\n"
	groqTurn2 = `{"model":"openai/gpt-oss-120b","stream":true,"messages":[{"role":"user","content":"Book the 9:40 ferry."},{"role":"assistant","content":null,"tool_calls":[{"id":"call_b","type":"function","function":{"name":"book","arguments":"{\"sailing\":\"9:40\"}"}}]},{"role":"tool","tool_call_id":"call_b","content":"booked"}],"tools":[{"type":"function","function":{"name":"book","parameters":{"type":"object","properties":{"sailing":{"type":"string"}},"required":["sailing"]}}}]}`
	groqDone  = "data: {\"id\":\"chatcmpl-g3\",\"object\":\"chat.completion.chunk\",\"model\":\"openai/gpt-oss-120b\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Booked.\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
)

// TestStreamErrorIsTheAnswer: an error event inside a 200 stream is the
// provider's answer — capture has nothing to capture (n/a, not a
// failure), the simulator is held against that error (a declared
// generation failure: unverifiable), and the exchanges after it are still
// checked.
func TestStreamErrorIsTheAnswer(t *testing.T) {
	dir := t.TempDir()
	sse := "text/event-stream"
	writeCassette(t, dir, "groq", "stream-error", []rt{{groqURL, groqTurn1, 200, groqError, sse}, {groqURL, groqTurn1, 200, groqRetry, sse}, {groqURL, groqTurn2, 200, groqDone, sse}})
	got := runOne(t, dir)
	if len(got) != 3 {
		t.Fatalf("%d exchanges, want 3", len(got))
	}
	tests := []struct {
		capture, repro, sim report.Verdict
		detail              string
		reason              string
	}{
		{report.VerdictNA, report.VerdictNA, report.VerdictUnverifiable,
			`the provider answered with an error inside the 200 stream (tool_use_failed): "Tool call validation failed`,
			"the error event is the answer; tool_use_failed is the profile's generation failure"},
		{report.VerdictPass, report.VerdictNA, report.VerdictAgree, "1 carrier held verbatim", "the retry answered"},
		{report.VerdictPass, report.VerdictPass, report.VerdictAgree, "the engine sends the 1 assistant turn the client sent", "the retry's turn is reproduced"},
	}
	for i, tc := range tests {
		g := got[i]
		details := g.capture.Detail + " | " + g.repro.Detail + " | " + g.sim.Detail
		if g.capture.Verdict != tc.capture || g.repro.Verdict != tc.repro || g.sim.Verdict != tc.sim || !strings.Contains(details, tc.detail) {
			t.Errorf("#%d: %s:\n got %s, %s, %s: %s\n want %s, %s, %s with %q", i, tc.reason, g.capture.Verdict, g.repro.Verdict, g.sim.Verdict, details,
				tc.capture, tc.repro, tc.sim, tc.detail)
		}
	}
	if !strings.Contains(got[0].sim.Detail, "generation failure tool-use-failed of profile groq") {
		t.Errorf("simulator detail %q must name the declared failure", got[0].sim.Detail)
	}
}

// TestStreamError finds errors in streams and nothing in plain ones.
func TestStreamError(t *testing.T) {
	tests := []struct {
		body, want string
		reason     string
	}{
		{groqError, "tool_use_failed", "an event named error"},
		{"data: {\"error\":{\"message\":\"overloaded\",\"code\":\"busy\"}}\n\n", "busy", "an error envelope without an event name"},
		{groqRetry, "", "a stream that answered"},
		{"data: {\"choices\":[],\"error\":null}\n\n", "", "a null error is no error"},
		{"event: error\ndata: not json\n\n", "", "a data line that is not JSON is not read"},
	}
	for _, tc := range tests {
		got := streamError([]byte(tc.body))
		if code := string(got); (tc.want == "") != (got == nil) || (tc.want != "" && !strings.Contains(code, tc.want)) {
			t.Errorf("%s: got %q, want one holding %q", tc.reason, got, tc.want)
		}
	}
}
