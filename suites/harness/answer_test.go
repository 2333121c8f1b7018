package harness_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/replaycheck/replaycheck/suites/harness"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// deepSeekAuthFailure is DeepSeek's answer to a bad key.
const deepSeekAuthFailure = `{"error":{"message":"Authentication Fails, Your api key: ****abcd is invalid","type":"authentication_error","param":null,"code":"invalid_request_error"}}`

func TestNotJudged(t *testing.T) {
	notServed := []string{"/v1/messages"}
	tests := []struct {
		code   int
		path   string
		judged bool
		why    string
		reason string
	}{
		{200, "/v1/chat/completions", true, "", "an accepted request"},
		{201, "/v1/chat/completions", true, "", "any 2xx"},
		{400, "/v1/chat/completions", true, "", "a refusal of the body"},
		{409, "/v1/chat/completions", true, "", "a conflict with the body"},
		{413, "/v1/chat/completions", true, "", "a body too large"},
		{415, "/v1/chat/completions", true, "", "a body of the wrong type"},
		{422, "/v1/chat/completions", true, "", "a body that does not validate"},
		{404, "/v1/projects/p/locations/l/publishers/anthropic/models/v1/messages", true, "", "the profile's documented 404 for a path of another platform's shape"},
		{401, "/v1/chat/completions", false, "the endpoint refused the key", "a bad key"},
		{402, "/v1/chat/completions", false, "the account cannot pay for the request", "no credit"},
		{403, "/v1/chat/completions", false, "the key may not use this endpoint or model", "a key without access"},
		{404, "/v1/chat/completions", false, "nothing is served at this URL: check the base URL and the model", "a wrong base URL"},
		{404, "/v1/messages/extra", false, "nothing is served at this URL: check the base URL and the model", "a not-served path matches at the end of the path only"},
		{407, "/v1/chat/completions", false, "a proxy asks for credentials", "a proxy"},
		{408, "/v1/chat/completions", false, "the request timed out", "a timeout"},
		{429, "/v1/chat/completions", false, "rate limited or out of quota", "a rate limit"},
		{405, "/v1/chat/completions", false, "an answer about the endpoint, the key or the account, not the request", "any other 4xx"},
		{500, "/v1/chat/completions", false, "the provider failed", "a server error"},
		{503, "/v1/chat/completions", false, "the provider failed", "an overloaded server"},
		{529, "/v1/messages", false, "the provider failed", "Anthropic's overloaded"},
		{302, "/v1/chat/completions", false, "an answer about the endpoint, the key or the account, not the request", "a redirect"},
	}
	for _, tc := range tests {
		why := harness.NotJudged(tc.code, tc.path, notServed)
		if (why == "") != tc.judged || why != tc.why {
			t.Errorf("%d %s: %s: got %q, want %q", tc.code, tc.path, tc.reason, why, tc.why)
		}
	}
}

func TestUnjudged(t *testing.T) {
	answer := func(url string, code int) *cassette.Interaction {
		return &cassette.Interaction{Request: cassette.Request{URL: url}, Response: cassette.Response{Code: code}}
	}
	f := &harness.File{Interactions: []*cassette.Interaction{
		answer("https://api.acme.test/v1/chat/completions", 200),
		answer("https://api.acme.test/v1/chat/completions", 401),
		answer("https://api.acme.test/v1/chat/completions", 400),
		answer("https://api.acme.test/v1/messages", 404),
		answer("https://api.acme.test/v1/chat/completions", 503),
	}}
	got := harness.Unjudged(f, []string{"/v1/messages"})
	want := []harness.Finding{
		{Where: "interaction 1", What: "401 Unauthorized (the endpoint refused the key)"},
		{Where: "interaction 4", What: "503 Service Unavailable (the provider failed)"},
	}
	if len(got) != len(want) {
		t.Fatalf("findings %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("finding %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestRecordingRefusesUnjudgedAnswers checks that an answer which is not
// the provider judging the request stops the recording: the request
// fails with the status, where it really went and the provider's words
// (trimmed, the key scrubbed), and Finish returns the same error, so no
// cassette can be made of it.
func TestRecordingRefusesUnjudgedAnswers(t *testing.T) {
	long := `{"error":{"message":"` + strings.Repeat("overloaded ", 60) + `"}}`
	tests := []struct {
		reason string
		code   int
		body   string
		want   []string
	}{
		{"a bad key", 401, deepSeekAuthFailure, []string{
			"401 Unauthorized from POST ", "/sim/chat/completions (the endpoint refused the key): " + deepSeekAuthFailure}},
		{"a rate limit", 429, `{"error":{"message":"Rate limit reached"}}`, []string{
			"429 Too Many Requests from POST ", "(rate limited or out of quota): {\"error\":{\"message\":\"Rate limit reached\"}}"}},
		{"a server error that echoes the key, over many lines", 500, "upstream failed\n\n  key " + secret + "\n" + long, []string{
			"500 Internal Server Error from POST ", "(the provider failed): upstream failed key [scrubbed] {\"error\"", "…"}},
		{"an empty body", 503, "", []string{"503 Service Unavailable from POST ", "(the provider failed): (empty body)"}},
	}
	for _, tc := range tests {
		t.Run(tc.reason, func(t *testing.T) {
			var received atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				received.Add(1)
				w.WriteHeader(tc.code)
				w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			rec, err := harness.StartRecording(harness.RecordOptions{
				TargetBaseURL: "https://api.acme.test/v1", SendBaseURL: srv.URL + "/sim",
				Secrets: []string{secret}, Transport: srv.Client().Transport,
			})
			if err != nil {
				t.Fatal(err)
			}
			_, err = send(t, rec, "https://api.acme.test/v1/chat/completions?key="+secret, `{"model":"m"}`)
			var ae *harness.AnswerError
			if !errors.Is(err, harness.ErrNotJudged) || !errors.As(err, &ae) || ae.Code != tc.code {
				t.Fatalf("request: %v, want an AnswerError of %d", err, tc.code)
			}
			msg := ae.Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not contain %q", msg, w)
				}
			}
			if !strings.Contains(msg, srv.URL+"/sim/chat/completions") {
				t.Errorf("message %q does not name where the request went", msg)
			}
			if strings.Contains(msg, secret) || strings.Contains(msg, "api.acme.test") || len(msg) > 500 {
				t.Errorf("message %q: want no key, the URL used rather than the target's, and a readable length", msg)
			}
			// The recording is lost: a scenario that goes on sends nothing.
			if _, again := send(t, rec, "https://api.acme.test/v1/chat/completions", `{"model":"other"}`); !errors.Is(again, harness.ErrNotJudged) || received.Load() != 1 {
				t.Errorf("a request after the refusal: %v, %d requests received: want the refusal and 1", again, received.Load())
			}
			its, err := rec.Finish()
			if !errors.Is(err, harness.ErrNotJudged) || its != nil {
				t.Errorf("finish: %d interactions, %v: want none and the refusal", len(its), err)
			}
		})
	}
}

func TestRecordingKeepsJudgedAnswers(t *testing.T) {
	codes := map[string]int{"ok": 200, "bad": 400, "conflict": 409, "large": 413, "type": 415, "invalid": 422}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/v1/messages") {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		b := make([]byte, 64)
		n, _ := r.Body.Read(b)
		for k, c := range codes {
			if strings.Contains(string(b[:n]), `"`+k+`"`) {
				w.WriteHeader(c)
			}
		}
	}))
	defer srv.Close()
	rec, err := harness.StartRecording(harness.RecordOptions{
		TargetBaseURL: srv.URL, NotServed: []string{"/v1/messages"}, Transport: srv.Client().Transport,
	})
	if err != nil {
		t.Fatal(err)
	}
	for k, c := range codes {
		resp, err := send(t, rec, srv.URL+"/chat/completions", `{"model":"`+k+`"}`)
		if err != nil || resp.StatusCode != c {
			t.Errorf("%d: %v %v", c, resp, err)
		}
	}
	if resp, err := send(t, rec, srv.URL+"/v1/messages", `{"model":"m"}`); err != nil || resp.StatusCode != 404 {
		t.Errorf("a 404 at a path the profile says is not served: %v %v", resp, err)
	}
	its, err := rec.Finish()
	if err != nil || len(its) != len(codes)+1 {
		t.Errorf("finish: %d interactions, %v", len(its), err)
	}
}

// TestRecordingCapQuotesTheRunsCap checks the cap's message: the cap the
// run was given (not what is left of it for this recording), and the URL
// the request would really have gone to.
func TestRecordingCapQuotesTheRunsCap(t *testing.T) {
	p, srv := startProvider(t, "")
	rec, err := harness.StartRecording(harness.RecordOptions{
		TargetBaseURL: "https://api.acme.test/v1", SendBaseURL: srv.URL + "/sim",
		MaxRequests: 10, Spent: 9, Transport: srv.Client().Transport,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := send(t, rec, "https://api.acme.test/v1/chat/completions", `{"n":1}`); err != nil {
		t.Fatalf("the run's tenth request: %v", err)
	}
	_, err = send(t, rec, "https://api.acme.test/v1/chat/completions", `{"n":2}`)
	var ce *harness.CapError
	if !errors.Is(err, harness.ErrRequestCap) || !errors.As(err, &ce) {
		t.Fatalf("the eleventh request: %v, want a CapError", err)
	}
	want := "request cap reached (--max-requests 10): POST " + srv.URL + "/sim/chat/completions was not sent"
	if ce.Error() != want {
		t.Errorf("cap message\n got  %s\n want %s", ce.Error(), want)
	}
	if p.received != 1 || rec.Sent() != 1 {
		t.Errorf("provider received %d, sent %d: want 1 and 1", p.received, rec.Sent())
	}
	if _, err := rec.Finish(); !errors.Is(err, harness.ErrRequestCap) {
		t.Errorf("finish after the cap: %v, want the cap: a capped recording is partial", err)
	}
}
