package responses_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"github.com/replaycheck/replaycheck/engine/responses"
)

// Refusal bodies of provider-facts §28 (and the relays it cites).
const (
	refusedNamingItem = `{"error":{"message":"The encrypted content for item rs_a could not be verified. Reason: Encrypted content could not be decrypted or parsed.","type":"invalid_request_error","param":null,"code":"invalid_encrypted_content"}}`
	refusedNamingNone = `{"error":{"message":"The encrypted content could not be verified.","type":"invalid_request_error","param":null,"code":"invalid_encrypted_content"}}`
	refusedByRelay    = "{\"model\":\"m\",\"error\":{\"param\":null,\"type\":\"invalid_request_error\",\"message\":\"Upstream request failed: [invalid_request_error] reasoning `encrypted_content` was not issued to this caller\"}}"
	refusedSignature  = "{\"error\":{\"message\":\"Provider returned error\",\"code\":400,\"metadata\":{\"raw\":\"{\\\"type\\\":\\\"error\\\",\\\"error\\\":{\\\"type\\\":\\\"invalid_request_error\\\",\\\"message\\\":\\\"messages.1.content.0: Invalid `signature` in `thinking` block\\\"}}\",\"provider_name\":\"Anthropic\"}}}"
	missingFollower   = `{"error":{"message":"Item 'rs_a' of type 'reasoning' was provided without its required following item.","type":"invalid_request_error","param":"input","code":null}}`
	missingReasoning  = `{"error":{"message":"Item 'fc_a' of type 'function_call' was provided without its required 'reasoning' item: 'rs_a'.","type":"invalid_request_error","param":"input","code":null}}`
	notPersisted      = "{\"error\":{\"message\":\"Item with id 'rs_a' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.\",\"type\":\"invalid_request_error\",\"param\":\"input\",\"code\":null}}"
)

// TestLearnVerdicts decides, per refusal, what is recorded.
func TestLearnVerdicts(t *testing.T) {
	fp := func(v string) string { return engine.Fingerprint(responses.FieldEncrypted, v) }
	sorted := func(s ...string) []string { slices.Sort(s); return s }
	relayed := `{"model":"m","input":[{"type":"reasoning","id":"rs_x","summary":[],"signature":"sigX"},{"type":"reasoning","id":"rs_y","summary":[],"encrypted_content":"encY"}]}`
	for _, tc := range []struct {
		reason     string
		sent       string // "" is the loop session shaped for OpenAI
		status     int
		body       string
		learnt     bool
		sealed     []string
		signatures []string
	}{
		{reason: "a refusal naming the item records that item only", status: 400, body: refusedNamingItem, learnt: true, sealed: []string{fp(encA)}},
		{reason: "a refusal quoting an excerpt of the content (first and last four) records that item", status: 400,
			body: `{"error":{"message":"The encrypted content ` + encC[:4] + "..." + encC[len(encC)-4:] + ` could not be verified.","code":"invalid_encrypted_content"}}`, learnt: true, sealed: []string{fp(encC)}},
		{reason: "a refusal naming nothing records every encrypted item of the request", status: 400, body: refusedNamingNone, learnt: true, sealed: sorted(fp(encA), fp(encB), fp(encC))},
		{reason: "a relay's not-issued-to-this-caller refusal is an encrypted-content refusal", status: 400, body: refusedByRelay, learnt: true, sealed: sorted(fp(encA), fp(encB), fp(encC))},
		{reason: "a relayed Claude signature refusal records the signed items, not the encrypted ones", sent: relayed, status: 400, body: refusedSignature, learnt: true,
			signatures: []string{engine.Fingerprint(responses.FieldSignature, "sigX")}},
		{reason: "a reasoning item without its following item: the engine lost an item; never learnt", status: 400, body: missingFollower},
		{reason: "an item without its reasoning item: never learnt into dropping more", status: 400, body: missingReasoning},
		{reason: "an item the service looked up by id (store is false): never learnt", status: 400, body: notPersisted},
		{reason: "a server error is not a refusal to learn from", status: 500, body: refusedNamingNone},
		{reason: "a refusal about something else", status: 400, body: `{"error":{"message":"Unknown parameter: 'temperature'.","type":"invalid_request_error"}}`},
	} {
		s := loopSession(t)
		sent := []byte(tc.sent)
		if tc.sent == "" {
			sent = shape(t, s, openaiRoute, engine.Request{})
		}
		verdict, ok := responses.Dialect{}.Learn(s, nil, enginetest.Table(t).Decide(openaiRoute, 0), sent, tc.status, []byte(tc.body))
		if ok != tc.learnt || !slices.Equal(s.Config.SealedBlobs, tc.sealed) || !slices.Equal(s.Config.RejectedSignatures, tc.signatures) {
			t.Errorf("%s: learnt %v (%q), sealed %v, signatures %v; want %v, %v, %v", tc.reason, ok, verdict, s.Config.SealedBlobs, s.Config.RejectedSignatures, tc.learnt, tc.sealed, tc.signatures)
		}
		if ok {
			if again, ok := (responses.Dialect{}).Learn(s, nil, engine.Decision{}, sent, tc.status, []byte(tc.body)); ok {
				t.Errorf("%s: the same refusal taught something again (%q): it would be retried twice", tc.reason, again)
			}
		}
	}
}

// exchange answers a request.
type exchange func(body []byte) (int, string)

// turn runs one engine turn for the session on the OpenAI route, answering
// with answers in order (the last one repeats).
func turn(t *testing.T, s *engine.Session, answers ...exchange) (engine.TurnResult, error) {
	t.Helper()
	table := enginetest.Table(t)
	e := &engine.Engine{Table: table}
	n := 0
	send := func(_ context.Context, path string, body []byte) (int, []byte, error) {
		if path != "/responses" {
			t.Fatalf("path %s", path)
		}
		a := answers[min(n, len(answers)-1)]
		n++
		st, b := a(body)
		return st, []byte(b), nil
	}
	return e.Turn(context.Background(), s, openaiRoute, responses.Dialect{Table: table}, engine.Request{}, send)
}

func refuse(body string) exchange { return func([]byte) (int, string) { return 400, body } }

// TestTurnLearnsOnceAndResumes is SPEC §6 for encrypted items: the refusal
// is learnt, the request retried exactly once without the refused item
// (the items after it without their ids), the verdict persisted with the
// session and never relearnt after resume.
func TestTurnLearnsOnceAndResumes(t *testing.T) {
	s := loopSession(t)
	var retry []byte
	res, err := turn(t, s, refuse(refusedNamingItem), func(b []byte) (int, string) {
		retry = b
		return 200, body(messageItem("msg_e", "Fixed."))
	})
	if err != nil || len(res.Exchanges) != 2 || len(res.Verdicts) != 1 {
		t.Fatalf("turn: %v, %d exchanges, verdicts %v: want one refusal, one verdict, one retry", err, len(res.Exchanges), res.Verdicts)
	}
	if strings.Contains(string(retry), encA) || strings.Contains(string(retry), `"id":"fc_a"`) || !strings.Contains(string(retry), encB) {
		t.Errorf("the retry must leave out the refused item, drop the ids after it and keep the rest: %s", retry)
	}
	if got := s.Messages[len(s.Messages)-1]; got.Native == nil || *got.Native.Issuer != openaiRoute.Key() {
		t.Errorf("the captured turn records its issuer: %+v", got.Native)
	}

	resumed := enginetest.Resume(t, s)
	if !slices.Equal(resumed.Config.SealedBlobs, s.Config.SealedBlobs) {
		t.Fatalf("the verdict did not survive resume: %v", resumed.Config.SealedBlobs)
	}
	resumed.Messages = append(resumed.Messages, enginetest.User("Next?"))
	var first []byte
	res, err = turn(t, resumed, func(b []byte) (int, string) {
		first = b
		return 200, body(messageItem("msg_f", "Next."))
	})
	if err != nil || len(res.Exchanges) != 1 || strings.Contains(string(first), encA) {
		t.Errorf("after resume: %v, %d exchanges, refused item sent again: %v", err, len(res.Exchanges), strings.Contains(string(first), encA))
	}
}

// TestTurnNeverLoops: a route that keeps refusing gets one retry per
// verdict, and a refusal that teaches nothing is final.
func TestTurnNeverLoops(t *testing.T) {
	for _, tc := range []struct {
		reason    string
		body      string
		exchanges int
	}{
		{"every encrypted item is recorded at once; the second refusal teaches nothing", refusedNamingNone, 2},
		{"a missing-item refusal is final at once", missingFollower, 1},
	} {
		res, err := turn(t, loopSession(t), refuse(tc.body))
		var refusal *engine.RefusalError
		if !errors.As(err, &refusal) || refusal.Status != 400 || len(res.Exchanges) != tc.exchanges {
			t.Errorf("%s: %v after %d requests, want the provider's refusal after %d", tc.reason, err, len(res.Exchanges), tc.exchanges)
		}
	}
}

// TestCarried names what a request carries, for the request log.
func TestCarried(t *testing.T) {
	for _, tc := range []struct {
		reason, body string
		want         []string
	}{
		{"no reasoning", `{"input":[{"role":"user","content":"q"}]}`, []string{}},
		{"encrypted items", string(shape(t, loopSession(t), openaiRoute, engine.Request{})), []string{"reasoning", "encrypted_content"}},
		{"a relay's signed item", `{"input":[{"type":"reasoning","summary":[],"signature":"s"}]}`, []string{"reasoning", "signature"}},
	} {
		if got := (responses.Dialect{}).Carried([]byte(tc.body)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.reason, got, tc.want)
		}
	}
}
