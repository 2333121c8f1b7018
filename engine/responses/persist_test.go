package responses_test

import (
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
)

// TestPersistedTurnReplaysIdentically is SPEC §8: a turn captured whole or
// streamed, stored in the session store and reloaded, shapes byte for byte
// like the live turn, on its own route and on a foreign one.
func TestPersistedTurnReplaysIdentically(t *testing.T) {
	dl := issuedBy(t, openaiRoute)
	for _, tc := range wholeCases {
		for _, streamed := range []bool{false, true} {
			var m engine.Message
			var err error
			if streamed {
				m, err = dl.CaptureStream(strings.NewReader(streamOf(t, tc.body, 5)))
			} else {
				m, err = dl.Capture([]byte(tc.body))
			}
			if err != nil {
				t.Fatal(err)
			}
			live := &engine.Session{ID: "s", Messages: []engine.Message{enginetest.User("q"), m}}
			for _, tc := range m.ToolCalls {
				live.Messages = append(live.Messages, enginetest.ToolResult(tc.ID, "r"))
			}
			reloaded := enginetest.Resume(t, live)
			for _, r := range []engine.Route{openaiRoute, azureRoute} {
				a := shape(t, live, r, engine.Request{})
				b := shape(t, reloaded, r, engine.Request{})
				if string(a) != string(b) {
					t.Errorf("%s (streamed %v, %s): the reloaded turn shapes differently\nlive: %s\nload: %s", tc.reason, streamed, r.Host(), a, b)
				}
			}
		}
	}
}
