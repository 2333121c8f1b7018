package sim

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// postDirected is post under a directive.
func postDirected(h http.Handler, path, body string, d Directive) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1"+path, strings.NewReader(body))
	req = req.WithContext(WithDirective(context.Background(), d))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestDirectiveShapesTheToolCallAnswer(t *testing.T) {
	const toolRequest = `{"model":"m","messages":[{"role":"user","content":"hi"}],` +
		`"tools":[{"type":"function","function":{"name":"first"}},{"type":"function","function":{"name":"read"}}]}`
	s := newSim(t, profile("p", modeChat, []string{"reasoning_content"}), testSeed)
	cases := []struct {
		reason   string
		d        Directive
		stream   bool
		wantName string
		wantArgs string
		// carriers lists the reasoning keys the answer must carry, absent
		// the ones it must not.
		carriers, absent []string
	}{
		{reason: "undirected: the first tool, {} and the profile's carrier", d: Directive{},
			wantName: "first", wantArgs: "{}", carriers: []string{"reasoning_content"}, absent: []string{"reasoning", "reasoning_details"}},
		{reason: "a chosen tool with arguments", d: Directive{Tool: "read", Arguments: `{"path":"a.txt"}`},
			wantName: "read", wantArgs: `{"path":"a.txt"}`, carriers: []string{"reasoning_content"}},
		{reason: "no reasoning: the bare tool-call answer", d: Directive{NoReasoning: true},
			wantName: "first", wantArgs: "{}", absent: []string{"reasoning_content", "reasoning", "reasoning_details"}},
		{reason: "every carrier, as another provider's turn holds them", d: Directive{Carriers: []string{"reasoning", "reasoning_details"}},
			wantName: "first", wantArgs: "{}", carriers: []string{"reasoning_content", "reasoning", "reasoning_details"}},
		{reason: "arguments that are not JSON are ignored", d: Directive{Arguments: `{"path":`},
			wantName: "first", wantArgs: "{}"},
		{reason: "streamed, no reasoning", d: Directive{NoReasoning: true, Arguments: `{"q":1}`}, stream: true,
			wantName: "first", wantArgs: `{"q":1}`, absent: []string{"reasoning_content"}},
	}
	for _, c := range cases {
		body := toolRequest
		if c.stream {
			body = strings.Replace(body, `"model":"m"`, `"model":"m","stream":true`, 1)
		}
		rec := postDirected(s, "/v1/chat/completions", body, c.d)
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %s", c.reason, rec.Code, rec.Body)
		}
		id := rec.Header().Get(ToolCallHeader)
		if !strings.HasPrefix(id, "call_") {
			t.Errorf("%s: %s = %q, want the call id", c.reason, ToolCallHeader, id)
		}
		var name, args string
		keys := map[string]bool{}
		if c.stream {
			chunks, _ := sseJSON(t, rec.Body.String())
			for _, ch := range chunks {
				delta := ch.Get("choices.0.delta")
				delta.ForEach(func(k, _ gjson.Result) bool { keys[k.Str] = true; return true })
				name += delta.Get("tool_calls.0.function.name").String()
				args += delta.Get("tool_calls.0.function.arguments").String()
			}
		} else {
			m := mustJSON(t, rec).Get("choices.0.message")
			m.ForEach(func(k, _ gjson.Result) bool { keys[k.Str] = true; return true })
			name = m.Get("tool_calls.0.function.name").String()
			args = m.Get("tool_calls.0.function.arguments").String()
			if got := m.Get("tool_calls.0.id").String(); got != id {
				t.Errorf("%s: tool call id %q, header %q", c.reason, got, id)
			}
		}
		if name != c.wantName || args != c.wantArgs {
			t.Errorf("%s: called %s(%s), want %s(%s)", c.reason, name, args, c.wantName, c.wantArgs)
		}
		for _, k := range c.carriers {
			if !keys[k] {
				t.Errorf("%s: answer lacks %s", c.reason, k)
			}
		}
		for _, k := range c.absent {
			if keys[k] {
				t.Errorf("%s: answer carries %s", c.reason, k)
			}
		}
	}
}

func TestDirectiveLeavesRulesAndPlainAnswersAlone(t *testing.T) {
	s := newSim(t, profile("p", modeChat, []string{"reasoning_content"}), testSeed)
	rec := postDirected(s, "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"title?"}]}`, Directive{Tool: "read", NoReasoning: true})
	if rec.Code != 200 || rec.Header().Get(ToolCallHeader) != "" {
		t.Fatalf("a request without tools: status %d, tool call %q; want a plain answer", rec.Code, rec.Header().Get(ToolCallHeader))
	}
	if m := mustJSON(t, rec).Get("choices.0.message"); m.Get("tool_calls").Exists() || m.Get("reasoning_content").Exists() {
		t.Errorf("a request without tools got %s", m.Raw)
	}
}
