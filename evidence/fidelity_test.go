package evidence

import (
	"net/http"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/report"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// TestFidelityCheck has profiles' simulators answer requests written for
// the test and compares with answers written for it.
func TestFidelityCheck(t *testing.T) {
	_, profiles := repo(t)
	bare := `{"model":"deepseek-v4-flash","messages":[{"role":"user","content":"q"},{"role":"assistant","content":"","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c","content":"ok"}]}`
	refusal := `{"error":{"message":"The ` + "`reasoning_content`" + ` in the thinking mode must be passed back to the API.","type":"invalid_request_error"}}`
	converse := `{"messages":[{"role":"user","content":[{"text":"q"}]},{"role":"assistant","content":[{"reasoningContent":{"reasoningText":{"text":"t","signature":"cmVhbA=="}}},{"text":"a"}]},{"role":"user","content":[{"text":"more"}]}],"additionalModelRequestFields":{"thinking":{"type":"enabled","budget_tokens":1024}}}`
	blank := func(model string) string {
		return `{"model":"` + model + `","messages":[{"role":"user","content":"q"},{"role":"assistant","content":"","reasoning_content":"","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c","content":"ok"}]}`
	}
	legacyBare := strings.Replace(bare, "deepseek-v4-flash", "deepseek-reasoner", 1)
	v3refusal := `{"error":{"message":"Missing ` + "`reasoning_content`" + ` field in the assistant message at message index 1. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls","type":"invalid_request_error"}}`
	groqFailed := `{"error":{"code":"tool_use_failed","failed_generation":"{}","message":"Tool call validation failed: parameters for tool f did not match schema","type":"invalid_request_error"}}`
	groqURL := "https://api.groq.com/openai/v1/chat/completions"
	groqReq := `{"model":"openai/gpt-oss-120b","messages":[{"role":"user","content":"q"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}]}`
	tests := []struct {
		profile, url, req string
		date              string
		status            int
		resp              string
		verdict           report.Verdict
		rule, detail      string
		reason            string
	}{
		{"deepseek", deepseekURL, blank("deepseek-reasoner"), "2026-02-10", 200, dsAnswer2, report.VerdictAgree, "", "200 as recorded",
			"deepseek-reasoner before V4 took a blank reasoning_content: its rule refuses only a missing key"},
		{"deepseek", deepseekURL, blank("deepseek-reasoner"), "", 200, dsAnswer2, report.VerdictAgree, "", "200 as recorded",
			"an undated deepseek-reasoner exchange is held against today's legacy-id rule, which refuses only a missing key"},
		{"deepseek", deepseekURL, blank("deepseek-v4-flash"), "2026-05-02", 200, dsAnswer2, report.VerdictDisagree, "reasoning-content-missing", "recorded 200; the simulator refused",
			"a V4 model refuses a blank value: a recorded 200 would contradict the profile"},
		{"deepseek", deepseekURL, legacyBare, "2026-02-10", 400, v3refusal, report.VerdictAgree, "reasoning-content-missing-v3", "with the same wording",
			"before V4, the rule of that day answers with the V3.2 wording"},
		{"deepseek", deepseekURL, legacyBare, "2026-06-01", 400, v3refusal, report.VerdictDisagree, "reasoning-content-missing-legacy-ids", "the wording differs",
			"after V4 the V3.2 wording no longer holds"},
		{"groq", groqURL, groqReq, "", 400, groqFailed, report.VerdictUnverifiable, "tool-use-failed", "generation failure tool-use-failed of profile groq",
			"a generation failure is the model's, not the request's: no rule predicts it, and it is no disagreement"},
		{"groq", groqURL, groqReq, "", 400, `{"error":{"code":"something_else","message":"x"}}`, report.VerdictDisagree, "", "no rule of profile groq fires",
			"another refusal no rule predicts still disagrees"},
		{"deepseek", deepseekURL, dsTurn1, "", 200, dsAnswer1, report.VerdictAgree, "", "200 as recorded", "both answer"},
		{"deepseek", deepseekURL, bare, "", 400, refusal, report.VerdictAgree, "reasoning-content-missing", "with the same wording", "the rule's body has the recorded wording"},
		{"deepseek", deepseekURL, bare, "", 400, `{"error":{"message":"something else entirely"}}`, report.VerdictDisagree, "reasoning-content-missing", "the wording differs", "same status, other words"},
		{"deepseek", deepseekURL, bare, "", 200, dsAnswer2, report.VerdictDisagree, "reasoning-content-missing", "recorded 200; the simulator refused with rule reasoning-content-missing", "the real provider accepted what the profile refuses"},
		{"deepseek", deepseekURL, dsTurn1, "", 422, `{"detail":[{"msg":"no"}]}`, report.VerdictDisagree, "", `recorded 422 ("no"); the simulator answered 200: no rule of profile deepseek fires`, "a refusal no rule predicts"},
		{"bedrock-converse", "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-opus-4-6-v1%3A0/converse", converse, "", 200, `{}`,
			report.VerdictUnverifiable, "reasoning-signature-invalid", "it verifies only the signatures it issued", "a real signature cannot pass the simulator's check"},
		{"bedrock-converse", "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-opus-4-6-v1%3A0/converse", converse, "", 400, `{"message":"The model returned an error for another reason."}`,
			report.VerdictUnverifiable, "reasoning-signature-invalid", `recorded 400 ("The model returned an error for another reason."); the simulator refused with rule reasoning-signature-invalid`,
			"a real refusal for another reason is hidden by the signature the simulator cannot verify: unverifiable, not a disagreement"},
		{"deepseek", deepseekURL, "", "", 200, dsAnswer1, report.VerdictNotChecked, "", "the fixture recorded the answer only", "no request"},
		{"no-such", deepseekURL, dsTurn1, "", 200, dsAnswer1, report.VerdictNotChecked, "", "the target names no provider profile", "no profile"},
	}
	for _, tc := range tests {
		x := &exchange{date: tc.date, it: &cassette.Interaction{
			Request:  cassette.Request{Method: "POST", URL: tc.url, Body: tc.req},
			Response: cassette.Response{Code: tc.status, Body: tc.resp, Headers: http.Header{}},
		}}
		c := fidelityCheck(profiles[tc.profile], x)
		if c.Verdict != tc.verdict || c.Rule != tc.rule || !strings.Contains(c.Detail, tc.detail) {
			t.Errorf("%s: %s (rule %q): %s; want %s (rule %q) with %q", tc.reason, c.Verdict, c.Rule, c.Detail, tc.verdict, tc.rule, tc.detail)
		}
	}
}

// TestErrorMessage reads the message of every error envelope.
func TestErrorMessage(t *testing.T) {
	for _, tc := range []struct{ body, want, reason string }{
		{`{"error":{"message":"m1"}}`, "m1", "OpenAI-style"},
		{`{"message":"m2","code":"x"}`, "m2", "flat (Cerebras, Bedrock REST)"},
		{`{"detail":[{"msg":"m3"}]}`, "m3", "pydantic (Mistral)"},
		{`[{"error":{"message":"m4"}}]`, "m4", "Google's OpenAI-compatible array"},
		{"data:{\"error\":{\"message\":\"m5\"}}\n\n", "m5", "SSE-framed (MiMo)"},
		{`plain text`, "plain text", "anything else is the body"},
	} {
		if got := errorMessage([]byte(tc.body)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.reason, got, tc.want)
		}
	}
}
