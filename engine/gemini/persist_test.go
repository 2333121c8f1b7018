package gemini_test

import (
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/gemini"
	"github.com/tidwall/gjson"
)

// TestPersistedTurnReplaysIdentically: a turn captured whole or streamed,
// stored and reloaded, shapes byte for byte like the live turn, and the
// signatures on the wire are the response's.
func TestPersistedTurnReplaysIdentically(t *testing.T) {
	for _, tc := range wholeCases {
		var want []string
		gjson.Get(tc.body, "candidates.0.content.parts").ForEach(func(_, p gjson.Result) bool {
			if s := p.Get("thoughtSignature").Str; s != "" {
				want = append(want, s)
			}
			return true
		})
		for _, streamed := range []bool{false, true} {
			var m engine.Message
			var err error
			if streamed {
				m, err = gemini.Dialect{}.CaptureStream(strings.NewReader(streamOf(t, tc.body, 2)))
			} else {
				m, err = gemini.Dialect{}.Capture([]byte(tc.body))
			}
			if err != nil {
				t.Fatal(err)
			}
			live := &engine.Session{ID: "s", Messages: []engine.Message{enginetest.User("q"), m}}
			for _, c := range m.ToolCalls {
				live.Messages = append(live.Messages, enginetest.ToolResult(c.ID, "r"))
			}
			a := shape(t, live, engine.Request{})
			b := shape(t, resume(t, live), engine.Request{})
			if string(a) != string(b) {
				t.Errorf("%s (streamed %v): the reloaded turn shapes differently\nlive: %s\nload: %s", tc.name, streamed, a, b)
			}
			var got []string
			gjson.GetBytes(b, "contents.1.parts").ForEach(func(_, p gjson.Result) bool {
				if s := p.Get("thoughtSignature").Str; s != "" {
					got = append(got, s)
				}
				return true
			})
			if !slices.Equal(got, want) {
				t.Errorf("%s (streamed %v): %s: wire signatures %q, want %q", tc.name, streamed, tc.reason, got, want)
			}
		}
	}
}
