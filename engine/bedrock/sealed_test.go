package bedrock_test

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/bedrock"
	"github.com/tidwall/gjson"
)

const kimi = "moonshotai.kimi-k3"

// sealedBody is a refusal of a blob sealed to another region, in the REST
// shape (the exception type travels in a header).
const sealedBody = `{"message":"The model returned the following errors: messages.1.content.1: the encrypted reasoning in this redacted block is not valid for this model or was created in a different region. Remove the block or reformat your input."}`

type sender struct {
	replies []reply
	sent    [][]byte
}

type reply struct {
	status int
	body   string
}

func (s *sender) send(_ context.Context, _ string, body []byte) (int, []byte, error) {
	s.sent = append(s.sent, body)
	if len(s.sent) > len(s.replies) {
		return 0, nil, errors.New("unexpected request")
	}
	r := s.replies[len(s.sent)-1]
	return r.status, []byte(r.body), nil
}

// kimiTurn is a streamed Kimi K3 turn whose one reasoning block carries
// readable text and a redacted blob, then a tool use (hermes #115865).
func kimiTurn(t *testing.T) engine.Message {
	t.Helper()
	frames := encodeFrames(t, []streamEvent{
		{"messageStart", `{"role":"assistant"}`},
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"text":"plan the call"}}}`},
		{"contentBlockDelta", `{"contentBlockIndex":0,"delta":{"reasoningContent":{"redactedContent":"` + blobR + `"}}}`},
		{"contentBlockStart", `{"contentBlockIndex":1,"start":{"toolUse":{"toolUseId":"tu_1","name":"weather"}}}`},
		{"contentBlockDelta", `{"contentBlockIndex":1,"delta":{"toolUse":{"input":"{\"city\":\"Oslo\"}"}}}`},
		{"messageStop", `{"stopReason":"tool_use"}`},
	})
	m, err := bedrock.Dialect{}.CaptureStream(strings.NewReader(string(frames)))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestTaggedUnionBlocks is hermes-semantics §7 group I (54): ordered
// reasoning holding text and a redacted blob becomes two single-member
// reasoningContent blocks before the toolUse, and the text is preserved.
func TestTaggedUnionBlocks(t *testing.T) {
	tbl := enginetest.Table(t)
	s := &engine.Session{Messages: []engine.Message{enginetest.User("weather in Oslo?"), kimiTurn(t), enginetest.ToolResult("tu_1", "cold")}}
	content := gjson.GetBytes(shape(t, tbl, s, kimi), "messages.1.content")
	var kinds []string
	content.ForEach(func(_, b gjson.Result) bool {
		var members []string
		b.ForEach(func(k, v gjson.Result) bool {
			members = append(members, k.Str)
			if k.Str == "reasoningContent" {
				n := 0
				v.ForEach(func(_, _ gjson.Result) bool { n++; return true })
				if n != 1 {
					t.Errorf("a reasoningContent block with %d members: %s", n, v.Raw)
				}
			}
			return true
		})
		kinds = append(kinds, strings.Join(members, "+"))
		return true
	})
	if got := strings.Join(kinds, ","); got != "reasoningContent,reasoningContent,toolUse" {
		t.Errorf("blocks %s, want reasoningContent,reasoningContent,toolUse", got)
	}
	if content.Get("0.reasoningContent.reasoningText.text").Str != "plan the call" || content.Get("1.reasoningContent.redactedContent").Str != blobR {
		t.Errorf("reasoning not preserved: %s", content.Raw)
	}
}

// TestSealedBlobRecovery is group I (55): a cross-region rejection leads to
// exactly two calls; the resent assistant content has no redactedContent
// and keeps reasoningText and toolUse; later requests never resend it.
func TestSealedBlobRecovery(t *testing.T) {
	tbl := enginetest.Table(t)
	s := &engine.Session{ID: "k", Messages: []engine.Message{enginetest.User("weather in Oslo?"), kimiTurn(t), enginetest.ToolResult("tu_1", "cold")}}
	snd := &sender{replies: []reply{{400, sealedBody}, {200, `{"output":{"message":{"role":"assistant","content":[{"text":"Cold."}]}}}`}}}
	r := engine.Route{APIMode: engine.ModeBedrockConverse, Provider: "bedrock", BaseURL: region, Model: kimi}
	res, err := (&engine.Engine{Table: tbl}).Turn(context.Background(), s, r, bedrock.Dialect{Table: tbl}, engine.Request{Tools: tools}, snd.send)
	if err != nil {
		t.Fatal(err)
	}
	if len(snd.sent) != 2 || len(res.Verdicts) != 1 {
		t.Fatalf("want exactly two calls and one verdict, got %d calls, verdicts %q", len(snd.sent), res.Verdicts)
	}
	retry := gjson.GetBytes(snd.sent[1], "messages.1.content").Raw
	if strings.Contains(retry, "redactedContent") || !strings.Contains(retry, `"reasoningText":{"text":"plan the call"}`) || !strings.Contains(retry, `"toolUse"`) {
		t.Errorf("resent assistant content: %s", retry)
	}
	if len(s.Config.SealedBlobs) != 1 || s.Config.SealedBlobs[0] != engine.Fingerprint("redacted_thinking", blobR) {
		t.Errorf("sealed blobs %q", s.Config.SealedBlobs)
	}
	s.Messages = append(s.Messages, enginetest.User("and tomorrow?"))
	if later := shape(t, tbl, s, kimi); strings.Contains(string(later), blobR) {
		t.Errorf("a later request resent the sealed blob")
	}
	// The stored history still holds the blob: only the wire copy changed.
	if !strings.Contains(snapshot(t, s), blobR) {
		t.Error("the sealed blob was removed from stored history")
	}
}

// TestSealedOnlyTurnDropped is group I (56): a turn holding only a sealed
// blob is dropped and its neighbours merge; a second strip changes nothing
// and is not retried.
func TestSealedOnlyTurnDropped(t *testing.T) {
	tbl := enginetest.Table(t)
	only := capture(t, `{"output":{"message":{"role":"assistant","content":[{"reasoningContent":{"redactedContent":"`+blobR2+`"}}]}}}`)
	s := &engine.Session{Messages: []engine.Message{enginetest.User("go"), only, enginetest.User("still there?")}}
	body := shape(t, tbl, s, kimi)
	d := tbl.Decide(engine.Route{APIMode: engine.ModeBedrockConverse, BaseURL: region, Model: kimi}, 0)
	dl := bedrock.Dialect{Table: tbl}
	if _, ok := dl.Learn(s, tbl, d, body, 400, []byte(sealedBody)); !ok {
		t.Fatal("sealed refusal not learnt")
	}
	retry, err := dl.Reshape(body, s, d, engine.Request{})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"role":"user","content":[{"text":"go"},{"text":"still there?"}]}]`
	if got := gjson.GetBytes(retry, "messages").Raw; got != want {
		t.Errorf("retry messages %s, want %s", got, want)
	}
	again, _ := dl.Reshape(retry, s, d, engine.Request{})
	if string(again) != string(retry) {
		t.Errorf("a second strip changed the body:\n%s\n%s", retry, again)
	}
	if _, ok := dl.Learn(s, tbl, d, retry, 400, []byte(sealedBody)); ok {
		t.Error("a refusal of a body with nothing sealed left was learnt again")
	}
	if fresh := shape(t, tbl, s, kimi); gjson.GetBytes(fresh, "messages").Raw != want {
		t.Errorf("a fresh shape after the verdict differs from the retry: %s", fresh)
	}
}

func TestLearnRecognises(t *testing.T) {
	tbl := enginetest.Table(t)
	claude := "us.anthropic.claude-opus-4-6-v1:0"
	s0 := &engine.Session{Messages: []engine.Message{enginetest.User("q"), capture(t, wholeCases[1].body), enginetest.ToolResult("tooluse_1", "x")}}
	body := shape(t, tbl, s0, claude)
	d := tbl.Decide(engine.Route{APIMode: engine.ModeBedrockConverse, BaseURL: region, Model: claude}, 0)
	tests := []struct {
		name     string
		status   int
		body     string
		sealed   int
		rejected int
		reason   string
	}{
		{"sealed-rest", 400, sealedBody, 1, 0, "the REST ValidationException body (type in a header)"},
		{"sealed-boto", 400, `An error occurred (ValidationException) when calling the Converse operation: The redacted reasoning content was created it in another account`, 1, 0, "the SDK rendering names the exception"},
		{"signature", 400, `{"message":"The model returned the following errors: messages.1.content.1: Invalid signature in thinking block"}`, 0, 2, "a refused signature fingerprints every signed block sent"},
		{"missing-field", 400, `{"message":"The model returned the following errors: messages.1.content.0.thinking.signature: Field required"}`, 0, 0, "no resend can add a signature"},
		{"no-phrase", 400, `{"message":"The encrypted content is malformed"}`, 0, 0, "encrypted without a sealing phrase is something else"},
		{"server", 503, sealedBody, 0, 0, "only a 4xx is a refusal"},
	}
	for _, tc := range tests {
		s := &engine.Session{Messages: s0.Messages}
		_, ok := bedrock.Dialect{Table: tbl}.Learn(s, tbl, d, body, tc.status, []byte(tc.body))
		if ok != (tc.sealed+tc.rejected > 0) || len(s.Config.SealedBlobs) != tc.sealed || len(s.Config.RejectedSignatures) != tc.rejected {
			t.Errorf("%s: %s: learnt %v, sealed %d, rejected %d", tc.name, tc.reason, ok, len(s.Config.SealedBlobs), len(s.Config.RejectedSignatures))
		}
	}
}

func TestSignatureRejectionResendsOnce(t *testing.T) {
	tbl := enginetest.Table(t)
	claude := "us.anthropic.claude-opus-4-6-v1:0"
	s := &engine.Session{Messages: []engine.Message{enginetest.User("q"), capture(t, wholeCases[1].body), enginetest.ToolResult("tooluse_1", "x")}}
	refusal := `{"message":"The model returned the following errors: messages.1.content.1: Invalid signature in thinking block"}`
	snd := &sender{replies: []reply{{400, refusal}, {400, refusal}}}
	r := engine.Route{APIMode: engine.ModeBedrockConverse, BaseURL: region, Model: claude}
	_, err := (&engine.Engine{Table: tbl}).Turn(context.Background(), s, r, bedrock.Dialect{Table: tbl}, engine.Request{Tools: tools}, snd.send)
	if !errors.Is(err, engine.ErrRefused) || len(snd.sent) != 2 {
		t.Fatalf("want the second refusal after exactly one resend, got %v after %d", err, len(snd.sent))
	}
	if got := wireOpaque(snd.sent[1]); len(got) != 0 {
		t.Errorf("the resend still carries %q", got)
	}
	var cfg engine.ModelConfig
	b, _ := json.Marshal(s.Config)
	if json.Unmarshal(b, &cfg) != nil || len(cfg.RejectedSignatures) != 2 {
		t.Errorf("rejections not persisted in the model config: %s", b)
	}
}
