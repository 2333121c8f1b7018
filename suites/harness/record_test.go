package harness_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/replaycheck/replaycheck/suites/harness"
)

const secret = "sk-live-0123456789abcdefghij"

// provider is a loopback stand-in for a provider: it records what reached
// it and echoes the request body, secrets included.
type provider struct {
	mu       sync.Mutex
	paths    []string
	auth     []string
	queries  []string
	simName  string
	received int
}

func (p *provider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	p.mu.Lock()
	p.received++
	p.paths = append(p.paths, r.URL.Path)
	p.auth = append(p.auth, r.Header.Get("Authorization"))
	p.queries = append(p.queries, r.URL.RawQuery)
	sim := p.simName
	p.mu.Unlock()
	if sim != "" {
		w.Header().Set(harness.SimulatorHeader, sim)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Set-Cookie", "session=abc")
	w.Header().Set("X-Request-Id", "req-123")
	if strings.Contains(string(b), "refuse") {
		w.WriteHeader(http.StatusBadRequest)
	}
	w.Write([]byte(`{"echo":` + string(b) + `,"note":"key ` + secret + ` seen"}`))
}

func startProvider(t *testing.T, sim string) (*provider, *httptest.Server) {
	t.Helper()
	p := &provider{simName: sim}
	srv := httptest.NewServer(p) // binds 127.0.0.1
	t.Cleanup(srv.Close)
	return p, srv
}

func send(t *testing.T, rt http.RoundTripper, url, body string) (*http.Response, error) {
	t.Helper()
	req := post(t, url, body, "Content-Type", "application/json")
	resp, err := rt.RoundTrip(req)
	if err == nil {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(strings.NewReader(string(b)))
	}
	return resp, err
}

func TestRecording(t *testing.T) {
	p, srv := startProvider(t, "acme/v3")
	rec, err := harness.StartRecording(harness.RecordOptions{
		TargetBaseURL: "https://api.acme.test/v1",
		SendBaseURL:   srv.URL + "/sim",
		Authorize:     func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+secret) },
		Secrets:       []string{secret, ""},
		MaxRequests:   2,
		Transport:     srv.Client().Transport,
	})
	if err != nil {
		t.Fatal(err)
	}
	target := "https://api.acme.test/v1/chat/completions?key=AIzaQueryKey0123456789&alt=sse"
	first := `{"model":"m","messages":[{"role":"user","content":"my key is ` + secret + `"}]}`
	resp, err := send(t, rec, target, first)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("first request: %v %v", resp, err)
	}
	// The same request with keys reordered is answered from the recording.
	resp, err = send(t, rec, target, `{"messages":[{"content":"my key is `+secret+`","role":"user"}],"model":"m"}`)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("repeat: %v %v", resp, err)
	}
	if rec.Sent() != 1 {
		t.Errorf("sent %d after an identical request, want 1", rec.Sent())
	}
	resp, err = send(t, rec, target, `{"model":"m","refuse":true}`)
	if err != nil || resp.StatusCode != 400 {
		t.Fatalf("second request: %v %v", resp, err)
	}
	// The cap (2 here) is TestRecordingCapQuotesTheRunsCap's: a capped
	// recording is partial and finishes with an error.
	if rec.Sent() != 2 || p.received != 2 {
		t.Errorf("sent %d, provider received %d: want 2 and 2", rec.Sent(), p.received)
	}
	if name, v, ok := rec.Simulator(); name != "acme" || v != 3 || !ok {
		t.Errorf("simulator %q %d %v", name, v, ok)
	}

	// The credentials reached the provider, at the redirected address.
	if !reflect.DeepEqual(p.auth, []string{"Bearer " + secret, "Bearer " + secret}) ||
		!reflect.DeepEqual(p.paths, []string{"/sim/chat/completions", "/sim/chat/completions"}) ||
		!strings.Contains(p.queries[0], "alt=sse") {
		t.Errorf("provider saw auth %q paths %q queries %q", p.auth, p.paths, p.queries)
	}

	its, err := rec.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if len(its) != 2 {
		t.Fatalf("%d interactions, want 2", len(its))
	}
	for i, it := range its {
		if it.ID != i || it.Request.URL != "https://api.acme.test/v1/chat/completions?alt=sse" || it.Request.Host != "api.acme.test" {
			t.Errorf("interaction %d: id %d url %s host %s: want the target's URL without its key", i, it.ID, it.Request.URL, it.Request.Host)
		}
		if it.Response.Duration != 0 {
			t.Errorf("interaction %d: duration %v", i, it.Response.Duration)
		}
		for what, h := range map[string]http.Header{"request": it.Request.Headers, "response": it.Response.Headers} {
			if len(h) != 1 || h.Get("Content-Type") != "application/json" {
				t.Errorf("interaction %d %s headers %v: want Content-Type only", i, what, h)
			}
		}
		if it.Response.ContentLength != int64(len(it.Response.Body)) || it.Request.ContentLength != int64(len(it.Request.Body)) {
			t.Errorf("interaction %d: content lengths %d/%d do not fit the scrubbed bodies", i, it.Request.ContentLength, it.Response.ContentLength)
		}
		all := it.Request.URL + it.Request.Body + it.Response.Body + strings.Join(it.Request.Headers.Values("Authorization"), "")
		if strings.Contains(all, secret) || strings.Contains(all, "Bearer") || strings.Contains(all, "AIzaQueryKey") {
			t.Errorf("interaction %d holds a credential: %s", i, all)
		}
	}
	if its[0].Request.Body != `{"model":"m","messages":[{"role":"user","content":"my key is [scrubbed]"}]}` ||
		its[0].Response.Body != `{"echo":{"model":"m","messages":[{"role":"user","content":"my key is [scrubbed]"}]},"note":"key [scrubbed] seen"}` {
		t.Errorf("interaction 0 bodies:\n%s\n%s", its[0].Request.Body, its[0].Response.Body)
	}
	if its[1].Response.Code != 400 || its[1].Request.Body != `{"model":"m","refuse":true}` {
		t.Errorf("interaction 1: %d %s", its[1].Response.Code, its[1].Request.Body)
	}
	f := &harness.File{Version: 2, Provenance: recorded(), Interactions: its}
	if fd := harness.Scan(f); len(fd) != 0 {
		t.Errorf("recorded interactions fail the scan: %v", fd)
	}
}

func TestRecordingLiveProvider(t *testing.T) {
	_, srv := startProvider(t, "")
	// No SendBaseURL: requests go where they say, here the loopback server.
	rec, err := harness.StartRecording(harness.RecordOptions{TargetBaseURL: srv.URL + "/v1", Transport: srv.Client().Transport})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := send(t, rec, srv.URL+"/v1/chat/completions", `{"model":"m"}`); err != nil {
		t.Fatal(err)
	}
	if name, v, ok := rec.Simulator(); ok || name != "" || v != 0 {
		t.Errorf("a live provider reported as simulator %q/%d", name, v)
	}
	its, err := rec.Finish()
	if err != nil || len(its) != 1 || its[0].Request.URL != srv.URL+"/v1/chat/completions" {
		t.Errorf("finish: %v %v", its, err)
	}
}

func TestRecordingSimulatorHeader(t *testing.T) {
	tests := []struct {
		header, name string
		version      int
		ok           bool
		reason       string
	}{
		{"vercel-ai-gateway/v12", "vercel-ai-gateway", 12, true, "a kebab-case profile and its version"},
		{"acme", "", 0, false, "no version"},
		{"acme/vx", "", 0, false, "a version is a number"},
		{"/v3", "", 0, false, "a profile is named"},
	}
	for _, tc := range tests {
		_, srv := startProvider(t, tc.header)
		rec, err := harness.StartRecording(harness.RecordOptions{TargetBaseURL: "https://api.acme.test/v1", SendBaseURL: srv.URL, Transport: srv.Client().Transport})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := send(t, rec, "https://api.acme.test/v1/models", ""); err != nil {
			t.Fatal(err)
		}
		name, v, ok := rec.Simulator()
		if name != tc.name || v != tc.version || ok != tc.ok {
			t.Errorf("%s: %s: got %q %d %v", tc.header, tc.reason, name, v, ok)
		}
		rec.Abort()
	}
}

func TestStartRecordingErrors(t *testing.T) {
	for _, base := range []string{"", "api.acme.test/v1", "/v1", "://x"} {
		if _, err := harness.StartRecording(harness.RecordOptions{TargetBaseURL: base}); err == nil || !strings.HasPrefix(err.Error(), "record: target base URL") {
			t.Errorf("base %q: %v", base, err)
		}
	}
	rec, err := harness.StartRecording(harness.RecordOptions{TargetBaseURL: "https://api.acme.test/v1", SendBaseURL: "localhost"})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Abort()
	if _, err := send(t, rec, "https://api.acme.test/v1/models", ""); err == nil || !strings.Contains(err.Error(), `record: base URL "localhost" is not absolute`) {
		t.Errorf("bad send base: %v", err)
	}
}
