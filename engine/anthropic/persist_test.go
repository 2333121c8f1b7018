package anthropic_test

import (
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/anthropic"
)

// TestPersistedTurnReplaysIdentically: a turn captured whole or streamed,
// stored in the session store and reloaded, shapes byte for byte like the
// live turn, and its opaque values on the wire are the response's.
func TestPersistedTurnReplaysIdentically(t *testing.T) {
	tbl := enginetest.Table(t)
	for _, tc := range wholeCases {
		for _, streamed := range []bool{false, true} {
			var m engine.Message
			var err error
			if streamed {
				m, err = anthropic.Dialect{}.CaptureStream(strings.NewReader(streamOf(t, tc.body, 2)))
			} else {
				m, err = anthropic.Dialect{}.Capture([]byte(tc.body))
			}
			if err != nil {
				t.Fatal(err)
			}
			live := &engine.Session{ID: "s", Messages: []engine.Message{enginetest.User("q"), m}}
			for _, tu := range m.ToolCalls {
				live.Messages = append(live.Messages, enginetest.ToolResult(tu.ID, "r"))
			}
			reloaded := resume(t, live)
			a := shape(t, tbl, live, direct, opus)
			b := shape(t, tbl, reloaded, direct, opus)
			if string(a) != string(b) {
				t.Errorf("%s (streamed %v): the reloaded turn shapes differently\nlive: %s\nload: %s", tc.name, streamed, a, b)
			}
			if got, want := wireSignatures(b), orEmpty(opaqueValues(tc.body)); !slices.Equal(got, want) {
				t.Errorf("%s (streamed %v): %s: wire opaque values %q, want the response's %q", tc.name, streamed, tc.reason, got, want)
			}
		}
	}
}
