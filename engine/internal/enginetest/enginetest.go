// Package enginetest holds the fixtures the engine's and the dialects'
// tests share: the committed route table, the plain messages a
// conversation is made of, and the opaque values a history holds.
package enginetest

import (
	"context"
	"encoding/json"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/store"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/tidwall/gjson"
)

// MatrixPath is the repository's matrix.yaml, found from this file so that
// every package's tests load the same table.
func MatrixPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "matrix.yaml")
}

// Table loads the committed route table.
func Table(tb testing.TB) *engine.Table {
	tb.Helper()
	f, err := matrix.Load(MatrixPath())
	if err != nil {
		tb.Fatal(err)
	}
	return &f.Table
}

// User is a user message with text content.
func User(text string) engine.Message {
	return engine.Message{Role: "user", Content: json.RawMessage(engine.AppendQuoted(nil, text))}
}

// ToolResult is the tool message answering call id.
func ToolResult(id, text string) engine.Message {
	return engine.Message{Role: "tool", ToolCallID: id, Content: json.RawMessage(engine.AppendQuoted(nil, text))}
}

// HeldOpaque returns the opaque values a history holds under the given
// paths of its native blocks and reasoning_details items: the only values
// a request shaped from it may carry.
func HeldOpaque(s *engine.Session, paths ...string) map[string]bool {
	held := map[string]bool{}
	for _, m := range s.Messages {
		var items []json.RawMessage
		if m.Native != nil {
			items = append(items, m.Native.Blocks...)
		}
		items = append(items, m.ReasoningDetails...)
		for _, it := range items {
			for _, p := range paths {
				if v := gjson.GetBytes(it, p).Str; v != "" {
					held[v] = true
				}
			}
		}
	}
	return held
}

// Resume stores s in a new session store file, closes it, opens it again
// and loads the session back: resume as the agent does it.
func Resume(tb testing.TB, s *engine.Session) *engine.Session {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "sessions.db")
	st, err := store.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := st.Create(context.Background(), s); err != nil {
		tb.Fatal(err)
	}
	if err := st.Close(); err != nil {
		tb.Fatal(err)
	}
	if st, err = store.Open(path); err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	out, err := st.Load(context.Background(), s.ID)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}
