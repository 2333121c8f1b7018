package harness_test

import (
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/replaycheck/replaycheck/internal/jsondiff"
	"github.com/replaycheck/replaycheck/suites/harness"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

const chatURL = "https://api.acme.test/v1/chat/completions"

// replayFixture writes a three-interaction cassette and opens it for replay.
func replayFixture(t *testing.T) *harness.Replay {
	t.Helper()
	ok := interaction("POST", chatURL, `{"model":"m","messages":[{"role":"user","content":"hi"}],"thinking":{"type":"enabled","keep":"all"}}`, 200, `{"answer":"hello"}`)
	refused := interaction("POST", chatURL, `{"model":"m","messages":[{"role":"user","content":"hi","reasoning":"r"}]}`, 400, `{"error":{"message":"Extra inputs are not permitted"}}`)
	models := interaction("GET", "https://api.acme.test/v1/models", "", 200, `{"data":[]}`)
	path := harness.Path(t.TempDir(), "acme", "carriers")
	if err := harness.Write(path, &harness.File{Version: 2, Provenance: simulated(), Interactions: []*cassette.Interaction{ok, refused, models}}); err != nil {
		t.Fatal(err)
	}
	r, err := harness.OpenReplay(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func post(t *testing.T, url, body string, header ...string) *http.Request {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return req
}

func TestReplayMatchesCanonicalBody(t *testing.T) {
	r := replayFixture(t)
	tests := []struct {
		name, url, body string
		header          []string
		code            int
		answer          string
		reason          string
	}{
		{"exact", chatURL, `{"model":"m","messages":[{"role":"user","content":"hi"}],"thinking":{"type":"enabled","keep":"all"}}`, nil,
			200, `{"answer":"hello"}`, "the recorded request itself"},
		{"reordered", chatURL, "{\n  \"thinking\": {\"keep\": \"all\", \"type\": \"enabled\"},\n  \"messages\": [ {\"content\": \"hi\", \"role\": \"user\"} ],\n  \"model\": \"m\"\n}", nil,
			200, `{"answer":"hello"}`, "key order and whitespace do not matter, at any depth"},
		{"authorized", chatURL, `{"model":"m","messages":[{"role":"user","content":"hi"}],"thinking":{"type":"enabled","keep":"all"}}`,
			[]string{"Authorization", "Bearer sk-live-abcdefghijklmnop", "X-Api-Key", "k", "Anthropic-Version", "2023-06-01"},
			200, `{"answer":"hello"}`, "headers (credentials included) never matter"},
		{"other-host", "http://127.0.0.1:9/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi","reasoning":"r"}]}`, nil,
			400, `{"error":{"message":"Extra inputs are not permitted"}}`, "matching is on the path; a refusal replays with its status"},
		{"again", chatURL, `{"model":"m","messages":[{"role":"user","content":"hi"}],"thinking":{"type":"enabled","keep":"all"}}`, nil,
			200, `{"answer":"hello"}`, "an interaction can be replayed more than once"},
	}
	for _, tc := range tests {
		resp, err := r.RoundTrip(post(t, tc.url, tc.body, tc.header...))
		if err != nil {
			t.Errorf("%s: %s: %v", tc.name, tc.reason, err)
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code || string(b) != tc.answer || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: %s: answered %d %s", tc.name, tc.reason, resp.StatusCode, b)
		}
	}
	if len(r.Misses()) != 0 {
		t.Errorf("misses %v", r.Misses())
	}
	if got := r.Unused(); !reflect.DeepEqual(got, []int{2}) {
		t.Errorf("unused %v, want [2] (the GET was never sent)", got)
	}
}

func TestReplayRefusesNearMiss(t *testing.T) {
	r := replayFixture(t)
	// Differs from interaction 0 in one nested value only.
	_, err := r.RoundTrip(post(t, chatURL, `{"model":"m","messages":[{"role":"user","content":"hi"}],"thinking":{"type":"enabled","keep":"recent"}}`))
	if !errors.Is(err, harness.ErrNoMatch) {
		t.Fatalf("error %v, want ErrNoMatch", err)
	}
	if !strings.Contains(err.Error(), "POST /v1/chat/completions") {
		t.Errorf("error %q does not name the request", err)
	}
	misses := r.Misses()
	if len(misses) != 1 {
		t.Fatalf("misses %v", misses)
	}
	m := misses[0]
	want := []jsondiff.Difference{{Path: "thinking.keep", Want: `"all"`, Got: `"recent"`}}
	if m.Method != "POST" || m.Path != "/v1/chat/completions" || m.Nearest != 0 || !reflect.DeepEqual(m.Diff, want) {
		t.Errorf("miss %+v", m)
	}
	if got := m.Explain(); got != "nearest recorded interaction is 0; request differs at:\nthinking.keep: want \"all\" got \"recent\"" {
		t.Errorf("explain %q", got)
	}

	// A request with the reasoning key on the message is nearest to the
	// refused interaction.
	_, err = r.RoundTrip(post(t, chatURL, `{"model":"m","messages":[{"role":"user","content":"hi","reasoning":"s"}]}`))
	if !errors.Is(err, harness.ErrNoMatch) {
		t.Fatalf("error %v", err)
	}
	if m := r.Misses()[1]; m.Nearest != 1 || len(m.Diff) != 1 || m.Diff[0].Path != "messages.0.reasoning" {
		t.Errorf("second miss %+v", m)
	}

	// Nothing recorded on the path: no nearest interaction.
	_, err = r.RoundTrip(post(t, "https://api.acme.test/v1/responses", `{}`))
	if !errors.Is(err, harness.ErrNoMatch) {
		t.Fatalf("error %v", err)
	}
	if m := r.Misses()[2]; m.Nearest != -1 || m.Explain() != "no recorded interaction for POST /v1/responses" {
		t.Errorf("third miss %+v: %s", m, m.Explain())
	}
	if got := r.Unused(); !reflect.DeepEqual(got, []int{0, 1, 2}) {
		t.Errorf("unused %v: a miss uses nothing", got)
	}
}

func TestReplayLookupDoesNotUse(t *testing.T) {
	r := replayFixture(t)
	it, ok := r.Lookup("POST", "/v1/chat/completions", []byte(`{"messages":[{"reasoning":"r","content":"hi","role":"user"}],"model":"m"}`))
	if !ok || it.Response.Code != 400 {
		t.Fatalf("lookup: %v %+v", ok, it)
	}
	if _, ok := r.Lookup("POST", "/v1/chat/completions", []byte(`{"model":"x"}`)); ok {
		t.Error("lookup found a request that was never recorded")
	}
	if it, ok := r.Lookup("GET", "/v1/models", nil); !ok || it.ID != 2 {
		t.Errorf("lookup of an empty body: %v %+v", ok, it)
	}
	if got := r.Unused(); !reflect.DeepEqual(got, []int{0, 1, 2}) {
		t.Errorf("unused %v: lookups must not mark interactions used", got)
	}
	if len(r.Misses()) != 0 {
		t.Error("a failed lookup is not a miss")
	}
}

func TestReplayNeverReachesTheNetwork(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	defer ln.Close()
	r := replayFixture(t)
	base := "http://" + ln.Addr().String()
	// A miss is refused without dialling.
	if _, err := r.RoundTrip(post(t, base+"/v1/chat/completions", `{"model":"unrecorded"}`)); !errors.Is(err, harness.ErrNoMatch) {
		t.Errorf("miss: %v", err)
	}
	// A hit is answered from the cassette, not by the listener.
	resp, err := r.RoundTrip(post(t, base+"/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}],"thinking":{"type":"enabled","keep":"all"}}`))
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("hit: %v %v", resp, err)
	}
	client := &http.Client{Transport: r}
	if _, err := client.Get(base + "/v1/unrecorded"); !errors.Is(err, harness.ErrNoMatch) {
		t.Errorf("through a client: %v", err)
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("the replay opened %d connections", n)
	}
}

func TestOpenReplayErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := harness.OpenReplay(filepath.Join(dir, "none.yaml")); !errors.Is(err, harness.ErrNoCassette) {
		t.Errorf("missing cassette: %v", err)
	}
	ok := interaction("POST", chatURL, `{"model":"m"}`, 200, `{}`)
	cut := interaction("POST", chatURL, `{"model":"m","messages":[`, 200, `{}`)
	path := harness.Path(dir, "acme", "carriers")
	if err := harness.Write(path, &harness.File{Version: 2, Provenance: simulated(), Interactions: []*cassette.Interaction{ok, cut}}); err != nil {
		t.Fatal(err)
	}
	_, err := harness.OpenReplay(path)
	want := path + ":43: interaction 1: request body: jsondiff: invalid JSON at offset 25: unexpected end of input"
	if err == nil || err.Error() != want {
		t.Errorf("a recorded request body that is not JSON could never match, so it is bad input named by line and index:\n got  %v\n want %s", err, want)
	}
}
