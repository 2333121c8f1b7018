package store

import (
	"context"
	"errors"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

func TestSaveIsAppendOnly(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		reason string
		edit   func(s *engine.Session)
		want   string
	}{
		{"a dropped message", func(s *engine.Session) { s.Messages = s.Messages[:len(s.Messages)-1] },
			`store: session "h": save: history is append-only: 9 messages stored, session has 8`},
		{"edited reasoning text", func(s *engine.Session) { s.Messages[2].ReasoningContent = engine.Str("rewritten") },
			`store: session "h": save: message 2: history is append-only: it differs from the stored message`},
		{"a removed reasoning_details item", func(s *engine.Session) { s.Messages[4].ReasoningDetails = s.Messages[4].ReasoningDetails[:1] },
			`store: session "h": save: message 4: history is append-only: it differs from the stored message`},
		{"a changed signature byte", func(s *engine.Session) {
			s.Messages[4].Native.Blocks[1] = raw(`{"type":"redacted_thinking","data":"X` + redactedBlob[1:] + `"}`)
		}, `store: session "h": save: message 4: history is append-only: it differs from the stored message`},
		{"reordered messages", func(s *engine.Session) { s.Messages[0], s.Messages[1] = s.Messages[1], s.Messages[0] },
			`store: session "h": save: message 0: history is append-only: it differs from the stored message`},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			st, _ := openTemp(t)
			if err := st.Create(ctx, richSession("h")); err != nil {
				t.Fatal(err)
			}
			changed := richSession("h")
			tt.edit(changed)
			changed.Config = engine.ModelConfig{RejectedSignatures: []string{"sha256:new"}}
			err := st.Save(ctx, changed)
			if err == nil || err.Error() != tt.want || !errors.Is(err, ErrDiverged) {
				t.Fatalf("Save error = %v, want %q wrapping ErrDiverged", err, tt.want)
			}
			loaded, err := st.Load(ctx, "h")
			if err != nil {
				t.Fatal(err)
			}
			assertReplaysLike(t, richSession("h"), loaded)
			if len(loaded.Config.RejectedSignatures) != 2 {
				t.Errorf("a refused Save changed the config: %v", loaded.Config)
			}
		})
	}
}

func TestSaveAppendsOnlyTheNewTail(t *testing.T) {
	ctx := context.Background()
	st, _ := openTemp(t)
	live := richSession("tail")
	if err := st.Create(ctx, &engine.Session{ID: "tail", Messages: live.Messages[:4]}); err != nil {
		t.Fatal(err)
	}
	// Another writer appended message 4 meanwhile; Save must keep it, not
	// write it twice.
	if err := st.Append(ctx, "tail", live.Messages[4]); err != nil {
		t.Fatal(err)
	}
	if err := st.Save(ctx, live); err != nil {
		t.Fatal(err)
	}
	loaded, err := st.Load(ctx, "tail")
	if err != nil {
		t.Fatal(err)
	}
	assertReplaysLike(t, live, loaded)
}

// TestSaveAfterLoadKeepsForeignBytes: a stored row whose JSON is not the
// storage form's own bytes (here: keys in another order, as another
// writer may leave) still counts as stored once this Store has loaded it
// and the message is unchanged; the row keeps its bytes. A Store that has
// not loaded it compares bytes, and refuses.
func TestSaveAfterLoadKeepsForeignBytes(t *testing.T) {
	ctx := context.Background()
	st, path := openTemp(t)
	if err := st.Create(ctx, &engine.Session{ID: "f", Messages: []engine.Message{{Role: "user", Content: raw(`"hi"`)}}}); err != nil {
		t.Fatal(err)
	}
	const foreign = `{"content":"hi","role":"user"}`
	if _, err := st.db.ExecContext(ctx, `UPDATE messages SET body = CAST(? AS BLOB) WHERE session_id = 'f'`, foreign); err != nil {
		t.Fatal(err)
	}
	other, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()

	loaded, err := st.Load(ctx, "f")
	if err != nil {
		t.Fatal(err)
	}
	grown := *loaded
	grown.Messages = append(grown.Messages, engine.Message{Role: "assistant", Content: raw(`"hello"`)})
	if err := other.Save(ctx, &grown); !errors.Is(err, ErrDiverged) {
		t.Errorf("a Store that did not load the row saved over it: %v", err)
	}
	if err := st.Save(ctx, &grown); err != nil {
		t.Fatalf("saving a loaded, unchanged history with one more message: %v", err)
	}
	var body string
	if err := st.db.QueryRowContext(ctx, `SELECT CAST(body AS TEXT) FROM messages WHERE session_id = 'f' AND seq = 0`).Scan(&body); err != nil || body != foreign {
		t.Errorf("the stored row is now %q (%v), want its bytes kept: %s", body, err, foreign)
	}
	again, err := st.Load(ctx, "f")
	if err != nil || len(again.Messages) != 2 {
		t.Fatalf("reload: %v", err)
	}
}
