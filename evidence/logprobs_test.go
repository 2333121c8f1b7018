package evidence

import (
	"testing"

	"github.com/replaycheck/replaycheck/report"
)

// A stateless Responses round trip written for this test: the answer's
// text part carries "logprobs": [] as OpenAI and Azure answer it, and the
// client replays the message without it (and without status), as the
// recorded clients do (docs/decisions.md, "Responses text parts are
// replayed without logprobs").
const (
	respURL    = "https://api.openai.com/v1/responses"
	respTurn1  = `{"model":"gpt-5.1","input":[{"role":"user","content":"Which pier is closer?"}],"include":["reasoning.encrypted_content"],"store":false}`
	respAnswer = `{"id":"resp_lp1","object":"response","status":"completed","error":null,"model":"gpt-5.1","output":[{"id":"rs_lp1","type":"reasoning","summary":[],"encrypted_content":"ZW5jLWxvZ3Byb2JzLW9uZQ=="},{"id":"msg_lp1","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"The east pier."}]}]}`
	respTurn2  = `{"model":"gpt-5.1","input":[{"role":"user","content":"Which pier is closer?"},{"id":"rs_lp1","type":"reasoning","summary":[],"encrypted_content":"ZW5jLWxvZ3Byb2JzLW9uZQ=="},{"id":"msg_lp1","type":"message","role":"assistant","content":[{"type":"output_text","annotations":[],"text":"The east pier."}]},{"role":"user","content":"How far?"}],"include":["reasoning.encrypted_content"],"store":false}`
	respDone   = `{"id":"resp_lp2","object":"response","status":"completed","error":null,"model":"gpt-5.1","output":[{"id":"msg_lp2","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":"400 m."}]}]}`
)

// TestReproductionWithoutLogprobs: the engine replays the text part
// without logprobs, as the client did, so the reproduction passes.
func TestReproductionWithoutLogprobs(t *testing.T) {
	dir := t.TempDir()
	writeCassette(t, dir, "openai-responses", "logprobs", []rt{{respURL, respTurn1, 200, respAnswer, ""}, {respURL, respTurn2, 200, respDone, ""}})
	got := runOne(t, dir)
	if len(got) != 2 {
		t.Fatalf("%d exchanges, want 2", len(got))
	}
	if r := got[1].repro; r.Verdict != report.VerdictPass {
		t.Errorf("reproduction %s: %s; findings %+v", r.Verdict, r.Detail, r.Findings)
	}
}
