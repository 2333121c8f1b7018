package responses_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"github.com/replaycheck/replaycheck/engine/responses"
	"github.com/tidwall/gjson"
)

// wellNamed is the shape every stream error takes: the dialect, then the
// byte offset in play.
var wellNamed = regexp.MustCompile(`^responses: stream( ending)?[: ].*offset \d+`)

// FuzzCaptureStream feeds arbitrary bytes to the stream capture: it must
// never panic, every error names the byte offset in play, and a stream it
// takes stores a turn that shapes to valid JSON.
func FuzzCaptureStream(f *testing.F) {
	for _, tc := range wholeCases {
		s := streamOf(f, tc.body, 3)
		f.Add([]byte(s))
		f.Add([]byte(s[:len(s)/2]))
	}
	f.Add([]byte(sse(added0, delta0, done0, completedEmpty)))
	f.Add([]byte("data: {\"type\":\"response.output_text.delta\",\"output_index\":0,\"delta\":\"x\"}\n\n"))
	table := enginetest.Table(f)
	dl := responses.Dialect{Table: table}.ForRoute(openaiRoute)
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := dl.CaptureStream(bytes.NewReader(b))
		if err != nil {
			if !wellNamed.MatchString(err.Error()) {
				t.Fatalf("error without an offset: %v", err)
			}
			return
		}
		checkTurn(t, table, m)
	})
}

// FuzzCapture feeds arbitrary bytes to the whole-body capture: never a
// panic, errors start with the dialect, and a body it takes equals the
// capture of the same response streamed.
func FuzzCapture(f *testing.F) {
	for _, tc := range wholeCases {
		f.Add([]byte(tc.body))
	}
	f.Add([]byte(`{"output":[{"type":"function_call"}]}`))
	f.Add([]byte(`{"output":[{"type":"message","content":[{"type":"output_text","text":"\u00e9"}]}],"error":null}`))
	table := enginetest.Table(f)
	dl := responses.Dialect{Table: table}.ForRoute(openaiRoute)
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := dl.Capture(b)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "responses: ") {
				t.Fatalf("error without the dialect: %v", err)
			}
			return
		}
		checkTurn(t, table, m)
		// The same output as a final response event: the stream's last
		// word, so the same message.
		out := gjson.GetBytes(b, "output").Raw
		stream := "data: {\"type\":\"response.completed\",\"response\":{\"output\":" + out + "}}\n\n"
		s, err := dl.CaptureStream(strings.NewReader(stream))
		if err != nil {
			t.Fatalf("the same output streamed: %v", err)
		}
		if x, y := mustJSON(t, m), mustJSON(t, s); x != y {
			t.Fatalf("whole %s\nstreamed %s", x, y)
		}
	})
}

// checkTurn checks a captured turn: an assistant message with a Responses
// native turn, storable, that shapes to valid JSON on its own route and
// sends no item to a foreign one.
func checkTurn(t *testing.T, table *engine.Table, m engine.Message) {
	t.Helper()
	if m.Role != "assistant" || m.Native == nil || m.Native.Dialect != engine.ModeResponses {
		t.Fatalf("captured a non-turn: %+v", m)
	}
	var back engine.Message
	if err := json.Unmarshal([]byte(mustJSON(t, m)), &back); err != nil {
		t.Fatalf("the stored form does not load: %v", err)
	}
	s := &engine.Session{Messages: []engine.Message{enginetest.User("q"), m}}
	for _, tc := range m.ToolCalls {
		s.Messages = append(s.Messages, enginetest.ToolResult(tc.ID, "r"))
	}
	for _, r := range []engine.Route{openaiRoute, azureRoute} {
		out, err := responses.Dialect{Table: table}.Shape(s, table.Decide(r, 0), engine.Request{})
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(out) {
			t.Fatalf("%s: shaped body is not JSON: %s", r.Host(), out)
		}
		if r == azureRoute && strings.Contains(string(out), `"type":"reasoning"`) {
			t.Fatalf("a reasoning item reached a foreign family: %s", out)
		}
	}
}

func mustJSON(t *testing.T, m engine.Message) string {
	t.Helper()
	b, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
