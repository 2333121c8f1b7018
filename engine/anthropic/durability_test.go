package anthropic_test

import (
	"context"
	"errors"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/anthropic"
	"github.com/replaycheck/replaycheck/engine/store"
)

const (
	direct  = "https://api.anthropic.com"
	opus    = "claude-opus-4-6"
	sigNew  = "EnewTurnSIG+/=="
	refusal = `{"type":"error","error":{"type":"invalid_request_error","message":"messages.3.content.0: Invalid ` + "`signature`" + ` in ` + "`thinking`" + ` block"},"request_id":"req_1"}`
	answer  = `{"content":[{"type":"thinking","thinking":"fresh thought","signature":"` + sigNew + `"},{"type":"text","text":"done"}]}`
)

// sender answers each request with the next canned reply and records the
// bodies it was sent.
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

// resume stores a session in a session store file, closes it and loads it
// from a fresh handle, as a resumed process does.
func resume(t *testing.T, s *engine.Session) *engine.Session {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sessions.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Create(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	out, err := st.Load(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// rejected runs a turn on the loop history whose first request is refused
// for a signature and whose retry succeeds.
func rejected(t *testing.T, tbl *engine.Table) (*engine.Session, *sender, engine.TurnResult) {
	t.Helper()
	s := loopHistory(t)
	snd := &sender{replies: []reply{{400, refusal}, {200, answer}}}
	e := &engine.Engine{Table: tbl}
	r := engine.Route{APIMode: engine.ModeAnthropic, Provider: "anthropic", BaseURL: direct, Model: opus}
	res, err := e.Turn(context.Background(), s, r, anthropic.Dialect{Table: tbl}, engine.Request{}, snd.send)
	if err != nil {
		t.Fatal(err)
	}
	return s, snd, res
}

func TestSignatureRejectionRetriesOnce(t *testing.T) {
	tbl := enginetest.Table(t)
	s, snd, res := rejected(t, tbl)
	if len(snd.sent) != 2 || len(res.Exchanges) != 2 || len(res.Verdicts) != 1 {
		t.Fatalf("want one refused request and one retry, got %d requests, %d verdicts", len(snd.sent), len(res.Verdicts))
	}
	if got := wireSignatures(snd.sent[0]); !slices.Equal(got, []string{sigPrior, sigLoop1, sigLoop2}) {
		t.Errorf("first request signatures %q", got)
	}
	if got := wireSignatures(snd.sent[1]); len(got) != 0 {
		t.Errorf("the retry still carries refused signatures %q", got)
	}
	if len(s.Config.RejectedSignatures) != 3 || !engine.HasFingerprint(s.Config.RejectedSignatures, engine.Fingerprint("thinking", sigLoop1)) {
		t.Errorf("fingerprints not recorded: %q", s.Config.RejectedSignatures)
	}
	if !strings.Contains(string(snd.sent[1]), `"name":"weather"`) || !strings.Contains(string(snd.sent[1]), `"text":"4"`) {
		t.Errorf("the retry lost visible text or tool calls: %s", snd.sent[1])
	}
	if got := s.Messages[len(s.Messages)-1]; string(got.Content) != `"done"` {
		t.Errorf("the answer was not captured: %s", got.Content)
	}
	// The retry equals a fresh shape of the session without the new turn.
	fresh := &engine.Session{Messages: s.Messages[:len(s.Messages)-1], Config: s.Config}
	if got := shape(t, tbl, fresh, direct, opus); string(got) != string(snd.sent[1]) {
		t.Errorf("the reshaped retry differs from a fresh shape\nretry: %s\nshape: %s", snd.sent[1], got)
	}
}

// TestRejectionDurability is hermes-semantics §7 group F (47): after a
// signature rejection, later requests replay exactly the never-rejected
// signatures, whatever happened to the session in between, and the
// rejected blocks' readable thinking never returns on a signed route.
func TestRejectionDurability(t *testing.T) {
	tbl := enginetest.Table(t)
	tests := []struct {
		name   string
		next   func(t *testing.T, s *engine.Session) *engine.Session
		model  string
		reason string
	}{
		{"same-session", func(_ *testing.T, s *engine.Session) *engine.Session { return s }, opus, "the live session keeps its verdict"},
		{"resume-store", resume, opus, "the fingerprints are persisted with the model config"},
		{"json-round-trip", func(t *testing.T, s *engine.Session) *engine.Session {
			out, err := engine.ParseSession([]byte(snapshot(t, s)))
			if err != nil {
				t.Fatal(err)
			}
			return out
		}, opus, "a session document round trip keeps them"},
		{"branch", func(_ *testing.T, s *engine.Session) *engine.Session { return engine.Branch(s, "child") }, opus, "a branch copies the model config"},
		{"compaction", func(t *testing.T, s *engine.Session) *engine.Session {
			d := tbl.Decide(engine.Route{APIMode: engine.ModeAnthropic, BaseURL: direct, Model: opus}, 0)
			res := engine.Compact(s, d, engine.CompactOptions{Threshold: engine.Estimate(s.Messages, d) - 1})
			if res.Dropped == 0 {
				t.Fatal("compaction dropped nothing")
			}
			return res.Session
		}, opus, "a compaction child keeps the config of its parent"},
		{"drop-whole-turns", func(_ *testing.T, s *engine.Session) *engine.Session {
			c := s.Clone()
			c.Messages = c.Messages[2:]
			return c
		}, opus, "a context-selection clone keeps the config"},
		{"future-family", func(_ *testing.T, s *engine.Session) *engine.Session { return s }, "claude-newfamily-7", "a future model family is suppressed too"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _, _ := rejected(t, tbl)
			s.Messages = append(s.Messages, enginetest.User("and tomorrow?"))
			next := tc.next(t, s)
			body := shape(t, tbl, next, direct, tc.model)
			if got := wireSignatures(body); !slices.Equal(got, []string{sigNew}) {
				t.Errorf("%s: signatures %q, want only the never-rejected %q", tc.reason, got, sigNew)
			}
			for _, text := range []string{"prior thought", "loop one", "loop two"} {
				if strings.Contains(string(body), text) {
					t.Errorf("%s: the rejected block's thinking %q came back", tc.reason, text)
				}
			}
		})
	}
}

// TestRepairWithoutRecording: routes that do not learn rejections, and
// requests with nothing to fingerprint, are repaired for one request only.
func TestRepairWithoutRecording(t *testing.T) {
	tbl := enginetest.Table(t)
	tests := []struct {
		name, baseURL, model string
		reason               string
	}{
		{"minimax", "https://api.minimax.io/anthropic", "MiniMax-M2.7", "MiniMax repairs the request once; its signatures come back next time"},
		{"kimi", "https://api.kimi.com/coding", "kimi-k2.5", "an unsigned route has nothing to fingerprint"},
	}
	for _, tc := range tests {
		s := loopHistory(t)
		snd := &sender{replies: []reply{{400, refusal}, {200, answer}}}
		r := engine.Route{APIMode: engine.ModeAnthropic, BaseURL: tc.baseURL, Model: tc.model}
		e := &engine.Engine{Table: tbl}
		if _, err := e.Turn(context.Background(), s, r, anthropic.Dialect{Table: tbl}, engine.Request{}, snd.send); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(snd.sent) != 2 || len(wireThinking(snd.sent[1])) != 0 {
			t.Errorf("%s: %s: the retry must go without any thinking: %s", tc.name, tc.reason, snd.sent[len(snd.sent)-1])
		}
		if len(s.Config.RejectedSignatures) != 0 {
			t.Errorf("%s: %s: recorded %q", tc.name, tc.reason, s.Config.RejectedSignatures)
		}
		s.Messages = append(s.Messages, enginetest.User("again"))
		if got := wireThinking(shape(t, tbl, s, tc.baseURL, tc.model)); len(got) < 3 {
			t.Errorf("%s: %s: the next request lost thinking: %q", tc.name, tc.reason, got)
		}
	}
}

func TestLearnRecognises(t *testing.T) {
	tbl := enginetest.Table(t)
	d := tbl.Decide(engine.Route{APIMode: engine.ModeAnthropic, BaseURL: direct, Model: opus}, 0)
	sent := shape(t, tbl, loopHistory(t), direct, opus)
	tests := []struct {
		name   string
		status int
		body   string
		want   bool
		reason string
	}{
		{"backticks", 400, refusal, true, "Anthropic's wording"},
		{"bedrock-wording", 400, `{"message":"The model returned the following errors: messages.7.content.2: Invalid signature in thinking block"}`, true, "Bedrock drops the backticks"},
		{"binding", 400, "messages.1.content.0: Invalid `signature` in `thinking` block. The block is bound to a different conversation.", true, "the 2026 binding-controls wording"},
		{"modified", 400, "messages.5.content.1: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified.", false, "no retry can fix an edited latest turn"},
		{"missing", 400, "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`.", false, "missing thinking is not a signature refusal"},
		{"server-error", 500, refusal, false, "only a 4xx is a refusal"},
	}
	for _, tc := range tests {
		s := loopHistory(t)
		_, ok := anthropic.Dialect{Table: tbl}.Learn(s, tbl, d, sent, tc.status, []byte(tc.body))
		if ok != tc.want {
			t.Errorf("%s: %s: learnt %v", tc.name, tc.reason, ok)
		}
	}
	// A second refusal of blocks already recorded is not retried again.
	s := loopHistory(t)
	if _, ok := (anthropic.Dialect{Table: tbl}).Learn(s, tbl, d, sent, 400, []byte(refusal)); !ok {
		t.Fatal("first refusal not learnt")
	}
	if _, ok := (anthropic.Dialect{Table: tbl}).Learn(s, tbl, d, sent, 400, []byte(refusal)); ok {
		t.Error("the same refusal was learnt twice (a retry loop)")
	}
}

func TestSecondRefusalIsReturned(t *testing.T) {
	tbl := enginetest.Table(t)
	s := loopHistory(t)
	snd := &sender{replies: []reply{{400, refusal}, {400, refusal}}}
	r := engine.Route{APIMode: engine.ModeAnthropic, BaseURL: direct, Model: opus}
	_, err := (&engine.Engine{Table: tbl}).Turn(context.Background(), s, r, anthropic.Dialect{Table: tbl}, engine.Request{}, snd.send)
	if !errors.Is(err, engine.ErrRefused) || len(snd.sent) != 2 {
		t.Errorf("want the second refusal returned after exactly one retry, got %v after %d requests", err, len(snd.sent))
	}
}
