package sim

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/tidwall/gjson"

	"github.com/replaycheck/replaycheck/providers"
)

const testSeed = "test-seed"

// profile builds a valid profile for tests; edit tweaks it.
func profile(name, mode string, fields []string, edit ...func(p *providers.Profile)) *providers.Profile {
	stream := providers.StreamSSE
	if mode == modeConverse {
		stream = providers.StreamAWSEventStream
	}
	p := &providers.Profile{
		Name:       name,
		Version:    1,
		Title:      "test " + name,
		APIMode:    mode,
		Hosts:      []string{"example.test"},
		Confidence: providers.ConfidenceConfirmed,
		Sources:    []string{"test fixture"},
		Emits:      providers.Emits{Fields: fields, Stream: stream, Source: "test fixture"},
		Reads:      fields,
	}
	for _, e := range edit {
		e(p)
	}
	return p
}

// signing sets the profile's signing scheme.
func signing(scheme string, fields ...string) func(p *providers.Profile) {
	return func(p *providers.Profile) {
		p.Signing = &providers.Signing{Scheme: scheme, Fields: fields, Source: "test fixture"}
	}
}

// format sets the reasoning_details format tag.
func format(f string) func(p *providers.Profile) {
	return func(p *providers.Profile) { p.Emits.DetailsFormat = f }
}

// reads replaces the read carriers.
func reads(fields ...string) func(p *providers.Profile) {
	return func(p *providers.Profile) { p.Reads = fields }
}

// ruleBody exposes every placeholder so tests can assert them.
const ruleBody = `{"error":{"index":{index},"field":"{field}","path":"{path}","request_id":"{request_id}"}}`

// withRule appends a rule with condition c and ruleBody.
func withRule(c providers.Condition, edit ...func(r *providers.Rule)) func(p *providers.Profile) {
	return func(p *providers.Profile) {
		r := providers.Rule{
			ID:         "rule-" + strings.ReplaceAll(c.Kind, "_", "-"),
			When:       c,
			Status:     400,
			Body:       ruleBody,
			Source:     "test fixture",
			Confidence: providers.ConfidenceConfirmed,
		}
		for _, e := range edit {
			e(&r)
		}
		p.Rules = append(p.Rules, r)
	}
}

func newSim(t testing.TB, p *providers.Profile, seed string) *Simulator {
	t.Helper()
	s, err := New(p, Options{Seed: seed})
	if err != nil {
		t.Fatalf("New(%s): %v", p.Name, err)
	}
	return s
}

// post sends body to h and returns the recorded answer.
func post(h http.Handler, path, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1"+path, strings.NewReader(body))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// mustJSON parses a whole JSON body.
func mustJSON(t testing.TB, rec *httptest.ResponseRecorder) gjson.Result {
	t.Helper()
	if !gjson.Valid(rec.Body.String()) {
		t.Fatalf("status %d: body is not JSON: %q", rec.Code, rec.Body.String())
	}
	return gjson.Parse(rec.Body.String())
}

// sseEvent is one parsed SSE event.
type sseEvent struct {
	name string
	data string
}

// parseSSE splits an SSE body (LF or CRLF framing) into events.
func parseSSE(body string) []sseEvent {
	body = strings.ReplaceAll(body, "\r\n", "\n")
	var out []sseEvent
	for _, block := range strings.Split(body, "\n\n") {
		if strings.TrimSpace(block) == "" {
			continue
		}
		var ev sseEvent
		for _, line := range strings.Split(block, "\n") {
			switch {
			case strings.HasPrefix(line, "event:"):
				ev.name = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
			case strings.HasPrefix(line, "data:"):
				ev.data += strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " ")
			}
		}
		out = append(out, ev)
	}
	return out
}

// sseJSON returns the JSON data payloads of an SSE stream, failing on any
// payload that is neither JSON nor [DONE].
func sseJSON(t testing.TB, body string) (chunks []gjson.Result, done bool) {
	t.Helper()
	for _, ev := range parseSSE(body) {
		if ev.data == "[DONE]" {
			done = true
			continue
		}
		if !gjson.Valid(ev.data) {
			t.Fatalf("SSE data is not JSON: %q", ev.data)
		}
		chunks = append(chunks, gjson.Parse(ev.data))
	}
	return chunks, done
}

// eventFrame is one decoded AWS event-stream message.
type eventFrame struct {
	typ     string
	payload gjson.Result
}

// decodeFrames decodes an AWS event-stream body.
func decodeFrames(t testing.TB, body []byte) []eventFrame {
	t.Helper()
	dec := eventstream.NewDecoder()
	r := bytes.NewReader(body)
	var out []eventFrame
	for r.Len() > 0 {
		msg, err := dec.Decode(r, nil)
		if err != nil {
			t.Fatalf("frame %d: %v", len(out), err)
		}
		for _, h := range []string{":content-type", ":message-type"} {
			if msg.Headers.Get(h) == nil {
				t.Fatalf("frame %d: no %s header", len(out), h)
			}
		}
		if got := msg.Headers.Get(":message-type").String(); got != "event" {
			t.Fatalf("frame %d: :message-type %q", len(out), got)
		}
		if !gjson.ValidBytes(msg.Payload) {
			t.Fatalf("frame %d: payload is not JSON: %q", len(out), msg.Payload)
		}
		out = append(out, eventFrame{typ: msg.Headers.Get(":event-type").String(), payload: gjson.ParseBytes(msg.Payload)})
	}
	return out
}
