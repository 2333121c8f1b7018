package sim

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestBadInput(t *testing.T) {
	s := newSim(t, profile("rc", modeChat, []string{"reasoning_content"}), testSeed)
	g := newSim(t, geminiProfile(), testSeed)
	tests := []struct {
		reason string
		sim    *Simulator
		method string
		body   string
		status int
		msg    string // substring of error.message
	}{
		{"empty body", s, http.MethodPost, "", 400, "empty"},
		{"whitespace body", s, http.MethodPost, " \n", 400, "empty"},
		{"not JSON", s, http.MethodPost, "hello", 400, "byte offset 1"},
		{"truncated JSON", s, http.MethodPost, `{"messages":[`, 400, "not valid JSON"},
		{"JSON array", s, http.MethodPost, `[1,2]`, 400, "expected a JSON object, got an array"},
		{"no messages", s, http.MethodPost, `{"model":"m"}`, 400, "messages: expected an array, got nothing"},
		{"messages is a string", s, http.MethodPost, `{"messages":"hi"}`, 400, "messages: expected an array, got a string"},
		{"gemini without contents", g, http.MethodPost, `{"messages":[]}`, 400, "contents: expected an array"},
		{"GET is not a model call", s, http.MethodGet, "", 404, "no route for GET /v1/chat/completions"},
		{"DELETE is not a model call", s, http.MethodDelete, "", 404, "no route for DELETE"},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(tt.method, "http://127.0.0.1/v1/chat/completions?key=secret", strings.NewReader(tt.body))
		rec := httptest.NewRecorder()
		tt.sim.ServeHTTP(rec, req)
		body := mustJSON(t, rec)
		if rec.Code != tt.status || rec.Header().Get("Content-Type") != "application/json" {
			t.Errorf("%s: status %d (%s), want %d JSON", tt.reason, rec.Code, rec.Header().Get("Content-Type"), tt.status)
		}
		if msg := body.Get("error.message").String(); !strings.Contains(msg, tt.msg) || strings.Contains(msg, "secret") {
			t.Errorf("%s: error.message %q, want it to contain %q and no query string", tt.reason, msg, tt.msg)
		}
	}
}

func TestLogNeverShowsHeadersOrQuery(t *testing.T) {
	var got []string
	logf := func(f string, a ...any) { got = append(got, fmt.Sprintf(f, a...)) }
	s, err := New(profile("rc", modeChat, []string{"reasoning_content"}, withRule(cond("top_level_field_present", "reasoning_effort"))), Options{Seed: testSeed, Logf: logf})
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{chatAnswerRequest, `{"reasoning_effort":"high","messages":[]}`, "nope"} {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/v1/chat/completions?key=sk-secret", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer sk-secret")
		s.ServeHTTP(httptest.NewRecorder(), req)
	}
	want := []string{"-> 200 answer", "-> 400 rule rule-top-level-field-present", "-> 400 request body"}
	if len(got) != len(want) {
		t.Fatalf("log lines %q, want %d", got, len(want))
	}
	for i, line := range got {
		if !strings.Contains(line, "POST /v1/chat/completions") || !strings.Contains(line, want[i]) || strings.Contains(line, "secret") {
			t.Errorf("log line %q, want POST /v1/chat/completions %s and no secret", line, want[i])
		}
	}
}
