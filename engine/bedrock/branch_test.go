package bedrock_test

import (
	"context"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/store"
	"github.com/tidwall/gjson"
)

// reopen saves a session in a store file, closes the store and loads the
// session from a fresh handle (a restart).
func reopen(t *testing.T, s *engine.Session) *engine.Session {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sessions.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Create(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err = store.Open(path); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	out, err := st.Load(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func toolParent(t *testing.T) *engine.Session {
	return &engine.Session{ID: "parent", Messages: []engine.Message{
		enginetest.User("weather?"),
		capture(t, wholeCases[1].body),
		enginetest.ToolResult("tooluse_1", "sunny"),
		capture(t, `{"output":{"message":{"role":"assistant","content":[{"text":"Sunny."}]}}}`),
	}}
}

// TestDisplayBranch is hermes-semantics §7 group J (57, 58): a branch
// seeded from the display projection (tool results not copied) must not
// replay native authority for the discarded tool exchange, after a
// restart as well; visible texts stay and the parent is unchanged.
func TestDisplayBranch(t *testing.T) {
	tbl := enginetest.Table(t)
	claude := "us.anthropic.claude-opus-4-6-v1:0"
	tests := []struct {
		name   string
		seed   func(b *engine.Session)
		reason string
	}{
		{"results-dropped", func(b *engine.Session) {
			var kept []engine.Message
			for _, m := range b.Messages {
				if m.Role != "tool" {
					kept = append(kept, m)
				}
			}
			b.Messages = kept
		}, "tool calls kept, results not copied: the calls are orphans"},
		{"display-projection", func(b *engine.Session) {
			var kept []engine.Message
			for _, m := range b.Messages {
				if m.Role == "tool" {
					continue
				}
				m.ToolCalls = nil
				kept = append(kept, m)
			}
			b.Messages = kept
		}, "the projection has no tool calls: the native blocks no longer match"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parent := toolParent(t)
			before := snapshot(t, parent)
			b := engine.Branch(parent, "branch")
			tc.seed(b)
			b.Messages = append(b.Messages, enginetest.User("and now?"))
			for _, s := range []*engine.Session{b, reopen(t, b)} {
				body := string(shape(t, tbl, s, claude))
				if strings.Contains(body, "toolUse") || strings.Contains(body, "toolResult") {
					t.Errorf("%s: an orphan tool exchange reached the wire: %s", tc.reason, body)
				}
				for _, text := range []string{"Looking.", "Sunny.", "and now?"} {
					if !strings.Contains(body, text) {
						t.Errorf("%s: visible text %q lost", tc.reason, text)
					}
				}
			}
			if snapshot(t, parent) != before {
				t.Errorf("%s: the parent history changed", tc.reason)
			}
		})
	}
}

// TestOrderedCarrierKeptIffTextMatches is group J (61): the ordered
// carrier replays only while the visible text equals its native text; the
// readable reasoning stays in storage either way.
func TestOrderedCarrierKeptIffTextMatches(t *testing.T) {
	tbl := enginetest.Table(t)
	claude := "us.anthropic.claude-opus-4-6-v1:0"
	tests := []struct {
		name   string
		text   string
		native bool
		reason string
	}{
		{"same", `"There are 3."`, true, "unchanged text keeps the native blocks"},
		{"changed", `"There are three."`, false, "a changed text replays from the standard view"},
	}
	for _, tc := range tests {
		m := capture(t, wholeCases[0].body)
		m.Content = []byte(tc.text)
		s := &engine.Session{Messages: []engine.Message{enginetest.User("q"), m, enginetest.User("next")}}
		content := gjson.GetBytes(shape(t, tbl, s, claude), "messages.1.content")
		if got := content.Get("1.text").Raw; got != tc.text {
			t.Errorf("%s: %s: text %s", tc.name, tc.reason, got)
		}
		// Either way the signed reasoning replays byte for byte, from the
		// native block or from its Anthropic-format item.
		if content.Get("0.reasoningContent.reasoningText.signature").Str != sigA {
			t.Errorf("%s: %s: reasoning lost: %s", tc.name, tc.reason, content.Raw)
		}
		if *m.ReasoningContent != "Count the r's.\n3." || len(m.ReasoningDetails) != 1 {
			t.Errorf("%s: readable reasoning not kept", tc.name)
		}
	}
}

// TestBranchRoundTrip is group J (62): a branch, stored and reloaded,
// keeps RC, R, RD, the private record and the ordered carrier.
func TestBranchRoundTrip(t *testing.T) {
	parent := toolParent(t)
	parent.Messages[1].Reasoning = engine.Str("alias")
	parent.Messages[1].SetRecord(engine.NativeValues{ThoughtSignature: "G"})
	b := reopen(t, engine.Branch(parent, "child"))
	for i := range parent.Messages {
		want, _ := parent.Messages[i].MarshalJSON()
		got, _ := b.Messages[i].MarshalJSON()
		if string(got) != string(want) {
			t.Errorf("message %d changed across branch and reload:\n got: %s\nwant: %s", i, got, want)
		}
	}
}
