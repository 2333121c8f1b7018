package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/internal/longsession"
)

// BenchmarkSaveLoad2000 saves a new 2,000-message session (about 1 KB of
// reasoning per assistant message) and loads it back.
func BenchmarkSaveLoad2000(b *testing.B) {
	ctx := context.Background()
	sess := longSession("", 2000, 1024)
	saveLoad(b, ctx, sess, len(sessionJSON(b, sess)))
}

// saveLoad saves sess as a new session and loads it back, once per loop,
// counting size bytes an iteration.
func saveLoad(b *testing.B, ctx context.Context, sess *engine.Session, size int) {
	st, _ := openTemp(b)
	b.SetBytes(int64(size))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		sess.ID = fmt.Sprintf("bench-%d", i)
		i++
		if err := st.Save(ctx, sess); err != nil {
			b.Fatal(err)
		}
		got, err := st.Load(ctx, sess.ID)
		if err != nil {
			b.Fatal(err)
		}
		if len(got.Messages) != len(sess.Messages) {
			b.Fatalf("loaded %d messages", len(got.Messages))
		}
	}
}

// BenchmarkResave2000 saves an unchanged 2,000-message session again: the
// prefix check alone.
func BenchmarkResave2000(b *testing.B) {
	ctx := context.Background()
	st, _ := openTemp(b)
	sess := longSession("resave", 2000, 1024)
	if err := st.Save(ctx, sess); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := st.Save(ctx, sess); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSaveLoadLong is the store budget (DESIGN.md "Budgets"): save
// the 2,000-turn, 67 MB session as a new session and load it back.
func BenchmarkSaveLoadLong(b *testing.B) {
	doc := longsession.Budget()
	sess, err := engine.ParseSession(doc)
	if err != nil {
		b.Fatal(err)
	}
	saveLoad(b, context.Background(), sess, len(doc))
}

// BenchmarkResaveLong saves the unchanged 67 MB session again: it only
// fingerprints the messages (TestResaveWritesNothing checks that it writes
// and encodes nothing).
func BenchmarkResaveLong(b *testing.B) {
	ctx := context.Background()
	st, sess, doc := savedLongSession(b)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if err := st.Save(ctx, sess); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSaveNextTurnLong saves the 67 MB session after each new turn
// (a user message and an answer), as an agent does: only the new messages
// are encoded and written.
func BenchmarkSaveNextTurnLong(b *testing.B) {
	ctx := context.Background()
	st, sess, _ := savedLongSession(b)
	b.ReportAllocs()
	for b.Loop() {
		sess.Messages = append(sess.Messages,
			engine.Message{Role: "user", Content: raw(`"and then?"`)},
			engine.Message{Role: "assistant", Content: raw(`"then the tests pass"`), ReasoningContent: engine.Str("checking the tests")})
		if err := st.Save(ctx, sess); err != nil {
			b.Fatal(err)
		}
	}
}

// savedLongSession opens a temporary store holding the 2,000-turn, 67 MB
// session, and returns the session and its document.
func savedLongSession(b *testing.B) (*Store, *engine.Session, []byte) {
	st, _ := openTemp(b)
	doc := longsession.Budget()
	sess, err := engine.ParseSession(doc)
	if err != nil {
		b.Fatal(err)
	}
	if err := st.Save(context.Background(), sess); err != nil {
		b.Fatal(err)
	}
	return st, sess, doc
}
