package bedrock_test

import (
	"bytes"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"slices"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/bedrock"
	"github.com/tidwall/gjson"
)

// TestPersistedTurnReplaysIdentically: a turn captured whole or streamed,
// stored and reloaded, shapes byte for byte like the live turn, and the
// opaque values on the wire are the response's.
func TestPersistedTurnReplaysIdentically(t *testing.T) {
	tbl := enginetest.Table(t)
	claude := "us.anthropic.claude-opus-4-6-v1:0"
	for _, tc := range wholeCases {
		var want []string
		gjson.Get(tc.body, "output.message.content").ForEach(func(_, b gjson.Result) bool {
			for _, k := range []string{"reasoningContent.reasoningText.signature", "reasoningContent.redactedContent"} {
				if v := b.Get(k).Str; v != "" {
					want = append(want, v)
				}
			}
			return true
		})
		for _, streamed := range []bool{false, true} {
			var m engine.Message
			var err error
			if streamed {
				m, err = bedrock.Dialect{}.CaptureStream(bytes.NewReader(encodeFrames(t, converseStreamOf(t, tc.body, 2))))
			} else {
				m, err = bedrock.Dialect{}.Capture([]byte(tc.body))
			}
			if err != nil {
				t.Fatal(err)
			}
			live := &engine.Session{ID: "s", Messages: []engine.Message{enginetest.User("q"), m}}
			for _, tu := range m.ToolCalls {
				live.Messages = append(live.Messages, enginetest.ToolResult(tu.ID, "r"))
			}
			a := shape(t, tbl, live, claude)
			b := shape(t, tbl, reopen(t, live), claude)
			if string(a) != string(b) {
				t.Errorf("%s (streamed %v): the reloaded turn shapes differently\nlive: %s\nload: %s", tc.name, streamed, a, b)
			}
			if got := wireOpaque(b); !slices.Equal(got, orEmpty(want)) {
				t.Errorf("%s (streamed %v): %s: wire opaque values %q, want %q", tc.name, streamed, tc.reason, got, want)
			}
		}
	}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
