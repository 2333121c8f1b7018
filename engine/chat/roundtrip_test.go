package chat_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"log/slog"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/chat"
	"github.com/tidwall/gjson"
)

// strictDetailsProvider refuses any assistant message carrying
// reasoning_details, as research inventory A16 describes, and counts calls.
type strictDetailsProvider struct{ calls int }

func (p *strictDetailsProvider) send(_ context.Context, _ string, body []byte) (int, []byte, error) {
	p.calls++
	refused := false
	gjson.GetBytes(body, "messages").ForEach(func(k, m gjson.Result) bool {
		if m.Get("role").String() == "assistant" && m.Get("reasoning_details").Exists() {
			refused = true
			return false
		}
		return true
	})
	if refused {
		return 400, []byte(`{"error":{"message":"Extra inputs are not permitted, field: 'messages[1].reasoning_details'"}}`), nil
	}
	return 200, []byte(`{"choices":[{"message":{"role":"assistant","content":"ok","reasoning_content":"fine"}}]}`), nil
}

func TestTurnLearnsRetriesOncePersists(t *testing.T) {
	table := enginetest.Table(t)
	route := engine.Route{APIMode: engine.ModeChat, Provider: "nous", BaseURL: "https://inference-api.nousresearch.com/v1", Model: "z-ai/glm-5.3-flash:US"}
	var logs bytes.Buffer
	e := &engine.Engine{Table: table, Log: slog.New(slog.NewTextHandler(&logs, nil))}
	s := &engine.Session{ID: "s1", Messages: history(storedTurn())}
	s.Messages = append(s.Messages, engine.Message{Role: "user", Content: raw(`"next"`)})
	stored := mustJSON(t, s.Messages)

	p := &strictDetailsProvider{}
	res, err := e.Turn(context.Background(), s, route, chat.Dialect{}, engine.Request{}, p.send)
	if err != nil {
		t.Fatal(err)
	}
	if p.calls != 2 || len(res.Exchanges) != 2 || len(res.Verdicts) != 1 {
		t.Fatalf("calls %d exchanges %d verdicts %v: want one refusal and one retry", p.calls, len(res.Exchanges), res.Verdicts)
	}
	if got := strings.Join(res.Exchanges[1].Carried, ","); got != "reasoning_content,reasoning" {
		t.Errorf("retry carried %s, want RC and R only (A17)", got)
	}
	if got := mustJSON(t, s.Messages[:len(s.Messages)-1]); got != stored {
		t.Error("history before the answer changed: the field must only be left out of the request")
	}
	if !strings.Contains(logs.String(), "carriers=reasoning_content,reasoning,reasoning_details") || !strings.Contains(logs.String(), "verdict") {
		t.Errorf("log lacks the per-request carriers or the verdict:\n%s", logs.String())
	}

	// Resume: the session goes through its storage form and a fresh engine.
	b, _ := json.Marshal(s)
	resumed, err := engine.ParseSession(b)
	if err != nil {
		t.Fatal(err)
	}
	resumed.Messages = append(resumed.Messages, engine.Message{Role: "user", Content: raw(`"again"`)})
	p2 := &strictDetailsProvider{}
	res, err = (&engine.Engine{Table: table}).Turn(context.Background(), resumed, route, chat.Dialect{}, engine.Request{}, p2.send)
	if err != nil || p2.calls != 1 {
		t.Fatalf("after resume: %d calls, err %v: the verdict must be remembered, never relearnt (A19)", p2.calls, err)
	}
}

func TestTurnNeverLoops(t *testing.T) {
	table := enginetest.Table(t)
	route := engine.Route{APIMode: engine.ModeChat, Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "m"}
	calls := 0
	always := func(context.Context, string, []byte) (int, []byte, error) {
		calls++
		return 400, []byte(`unknown field "reasoning_details" in messages[1]`), nil
	}
	s := &engine.Session{Messages: history(storedTurn())}
	_, err := (&engine.Engine{Table: table}).Turn(context.Background(), s, route, chat.Dialect{}, engine.Request{}, always)
	var refusal *engine.RefusalError
	if !errors.As(err, &refusal) || !errors.Is(err, engine.ErrRefused) || calls != 2 {
		t.Fatalf("err %v after %d calls: want a refusal after exactly one retry", err, calls)
	}
	calls = 0
	_, err = (&engine.Engine{Table: table}).Turn(context.Background(), s, route, chat.Dialect{}, engine.Request{}, always)
	if err == nil || calls != 1 {
		t.Fatalf("a refusal already recorded was retried (%d calls): at most one retry per field, ever", calls)
	}
	valueComplaint := func(context.Context, string, []byte) (int, []byte, error) {
		calls++
		return 400, []byte(`reasoning_content is not allowed to be empty`), nil
	}
	calls = 0
	_, err = (&engine.Engine{Table: table}).Turn(context.Background(), &engine.Session{Messages: history(storedTurn())}, route, chat.Dialect{}, engine.Request{}, valueComplaint)
	if err == nil || calls != 1 {
		t.Fatalf("a value complaint was retried (%d calls)", calls)
	}
}
