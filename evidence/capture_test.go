package evidence

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/report"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// lossyDialect is a dialect whose capture loses what the test says, so
// the check is seen to catch it.
type lossyDialect struct {
	engine.Dialect
	msg engine.Message
	err error
}

func (d lossyDialect) Capture([]byte) (engine.Message, error)          { return d.msg, d.err }
func (d lossyDialect) CaptureStream(io.Reader) (engine.Message, error) { return d.msg, d.err }

func exchangeOf(status int, body string, stream bool) *exchange {
	x := &exchange{it: &cassette.Interaction{Response: cassette.Response{Code: status, Body: body, Headers: http.Header{}}}}
	x.route.Stream = stream
	return x
}

// TestCaptureCheck runs check 1 with dialects that keep or lose carriers.
func TestCaptureCheck(t *testing.T) {
	const whole = `{"content":[{"type":"thinking","thinking":"t","signature":"c2ln"},{"type":"text","text":"a"}]}`
	const stream = "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"par\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"ts\"}}\n\n" +
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"c2ln\"}}\n\n"
	keeps := engine.Message{Role: "assistant", Native: &engine.NativeTurn{Dialect: engine.ModeAnthropic,
		Blocks: []json.RawMessage{json.RawMessage(`{"type":"thinking","thinking":"t","signature":"c2ln"}`)}}}
	keepsStream := engine.Message{Role: "assistant", ReasoningContent: engine.Str("parts"), ReasoningDetails: []json.RawMessage{json.RawMessage(`{"signature":"c2ln"}`)}}
	loses := engine.Message{Role: "assistant", ReasoningContent: engine.Str("t")}
	tests := []struct {
		dia     engine.Dialect
		x       *exchange
		verdict report.Verdict
		finds   int
		reason  string
	}{
		{lossyDialect{msg: keeps}, exchangeOf(200, whole, false), report.VerdictPass, 0, "every carrier is stored, wherever the dialect keeps it"},
		{lossyDialect{msg: keepsStream}, exchangeOf(200, stream, true), report.VerdictPass, 0, "stream text concatenates; the signature comes last"},
		{lossyDialect{msg: loses}, exchangeOf(200, whole, false), report.VerdictFail, 1, "a lost signature is a finding"},
		{lossyDialect{msg: loses}, exchangeOf(200, stream, true), report.VerdictFail, 2, "a piece of streamed text is not the whole text"},
		{lossyDialect{err: errors.New("boom")}, exchangeOf(200, whole, false), report.VerdictFail, 0, "a capture error fails"},
		{lossyDialect{msg: keeps}, exchangeOf(400, `{"error":"x"}`, false), report.VerdictNA, 0, "a refusal has no answer"},
		{nil, exchangeOf(200, whole, false), report.VerdictNotChecked, 0, "no dialect: not checked"},
	}
	for _, tc := range tests {
		c, _ := captureCheck(tc.dia, engine.ModeAnthropic, tc.x)
		if c.Verdict != tc.verdict || len(c.Findings) != tc.finds {
			t.Errorf("%s: %s %q with %d findings, want %s with %d", tc.reason, c.Verdict, c.Detail, len(c.Findings), tc.verdict, tc.finds)
		}
	}
}

// TestAnswerCarriers reads the carriers of answers of every dialect.
func TestAnswerCarriers(t *testing.T) {
	tests := []struct {
		mode   engine.APIMode
		body   string
		stream bool
		want   []carrier
		reason string
	}{
		{engine.ModeChat, `{"choices":[{"message":{"reasoning":"r","reasoning_details":[{"type":"reasoning.encrypted","data":"ZW5j"}],"tool_calls":[{"extra_content":{"google":{"thought_signature":"c2ln"}}}]}}]}`, false,
			[]carrier{{"choices.0.message.reasoning", "r", false}, {"choices.0.message.reasoning_details.0.data", "ZW5j", true},
				{"choices.0.message.tool_calls.0.extra_content.google.thought_signature", "c2ln", true}}, "chat whole"},
		{engine.ModeChat, "data: {\"choices\":[{\"delta\":{\"reasoning_details\":[{\"type\":\"reasoning.text\",\"text\":\"a\",\"index\":0}]}}]}\n\n" +
			"data: {\"choices\":[{\"delta\":{\"reasoning_details\":[{\"type\":\"reasoning.text\",\"text\":\"b\",\"index\":0}]}}]}\n\n" +
			"data: {\"choices\":[{\"delta\":{\"reasoning_details\":[{\"type\":\"reasoning.text\",\"signature\":\"c2ln\",\"index\":0}]}}]}\n\ndata: [DONE]\n\n", true,
			[]carrier{{"stream: reasoning_details index 0 text", "ab", false}, {"stream: reasoning_details index 0 signature", "c2ln", true}}, "chat stream merges details by index"},
		{engine.ModeChat, "data: {\"choices\":[{\"delta\":{\"content\":[{\"type\":\"thinking\",\"thinking\":[{\"type\":\"text\",\"text\":\"a\"}]}]}}]}\n\n" +
			"data: {\"choices\":[{\"delta\":{\"content\":[{\"type\":\"thinking\",\"thinking\":[{\"type\":\"text\",\"text\":\"b\"}]}]}}]}\n\n", true,
			[]carrier{{"stream: content thinking chunks", "ab", false}}, "Mistral thinking chunks concatenate across deltas"},
		{engine.ModeGemini, "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"t\",\"thought\":true}]}}]}\r\n\r\n" +
			"data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"f\"},\"thoughtSignature\":\"YQ==\"},{\"text\":\"\",\"thoughtSignature\":\"Yg==\"}]}}]}\r\n\r\n", true,
			[]carrier{{"parts: thought text", "t", false}, {"parts: functionCall 0 (f) thoughtSignature", "YQ==", true}, {"parts: text thoughtSignature (latest)", "Yg==", true}}, "Gemini call and text signatures"},
		{engine.ModeBedrockConverse, `{"output":{"message":{"content":[{"reasoningContent":{"redactedContent":"cmVk"}}]}}}`, false,
			[]carrier{{"output.message.content.0.reasoningContent.redactedContent", "cmVk", true}}, "Converse whole"},
		{engine.ModeResponses, `{"output":[{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"s"}],"encrypted_content":"gAAAAenc"},{"type":"function_call","call_id":"c"}]}`, false,
			[]carrier{{"output.0.encrypted_content", "gAAAAenc", true}, {"output.0.summary.0.text", "s", false}}, "Responses whole: a reasoning item's encrypted content and summary"},
		{engine.ModeResponses, "event: response.reasoning_summary_text.delta\ndata: {\"type\":\"response.reasoning_summary_text.delta\",\"output_index\":0,\"summary_index\":0,\"delta\":\"par\"}\n\n" +
			"event: response.output_item.done\ndata: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"type\":\"reasoning\",\"summary\":[{\"text\":\"part\"}],\"encrypted_content\":\"gAAAA1\"}}\n\n" +
			"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"output\":[{\"type\":\"reasoning\",\"summary\":[{\"text\":\"part\"}],\"content\":[{\"type\":\"reasoning_text\",\"text\":\"r\"}],\"signature\":\"c2ln\"}]}}\n\n", true,
			[]carrier{{"stream: response.completed output.0.signature", "c2ln", true}, {"stream: response.completed output.0.summary.0.text", "part", false}, {"stream: response.completed output.0.content.0.text", "r", false}},
			"Responses stream: the completed response is the whole answer"},
		{engine.ModeResponses, "data: {\"type\":\"response.output_item.done\",\"output_index\":1,\"item\":{\"type\":\"reasoning\",\"encrypted_content\":\"gAAAA2\"}}\n\n" +
			"data: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"type\":\"reasoning\",\"encrypted_content\":\"gAAAA1\"}}\n\n", true,
			[]carrier{{"stream: output_item.done output 0.encrypted_content", "gAAAA1", true}, {"stream: output_item.done output 1.encrypted_content", "gAAAA2", true}},
			"Responses stream without response.completed: finished items by output index"},
		{engine.ModeResponses, "data: {\"type\":\"response.reasoning_summary_text.delta\",\"output_index\":0,\"summary_index\":0,\"delta\":\"a\"}\n\n" +
			"data: {\"type\":\"response.reasoning_summary_text.delta\",\"output_index\":0,\"summary_index\":0,\"delta\":\"b\"}\n\n", true,
			[]carrier{{"stream: output 0 summary 0 text", "ab", false}}, "Responses stream of deltas only: texts concatenate per item and part"},
	}
	for _, tc := range tests {
		got, err := answerCarriers(tc.mode, []byte(tc.body), tc.stream)
		if err != nil || len(got) != len(tc.want) {
			t.Errorf("%s: %v %+v", tc.reason, err, got)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: carrier %d %+v, want %+v", tc.reason, i, got[i], tc.want[i])
			}
		}
	}
}
