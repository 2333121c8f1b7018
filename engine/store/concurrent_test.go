package store

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	st, _ := openTemp(t)
	const writers, perWriter = 8, 25
	if err := st.Create(ctx, &engine.Session{ID: "shared"}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, writers*(perWriter+2))
	for w := range writers {
		wg.Go(func() {
			own := fmt.Sprintf("own-%d", w)
			if err := st.Create(ctx, &engine.Session{ID: own}); err != nil {
				errs <- err
				return
			}
			for i := range perWriter {
				m := engine.Message{Role: "user", Content: raw(fmt.Sprintf(`"w%d-%d"`, w, i))}
				if err := st.Append(ctx, "shared", m); err != nil {
					errs <- err
				}
				if err := st.Append(ctx, own, m); err != nil {
					errs <- err
				}
				if _, err := st.Load(ctx, "shared"); err != nil {
					errs <- err
				}
			}
			cfg := engine.ModelConfig{RejectedSignatures: []string{own}}
			if err := st.SaveConfig(ctx, own, cfg); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	shared, err := st.Load(ctx, "shared")
	if err != nil {
		t.Fatal(err)
	}
	if len(shared.Messages) != writers*perWriter {
		t.Fatalf("shared session has %d messages, want %d", len(shared.Messages), writers*perWriter)
	}
	// Every writer's messages arrive in its own order.
	next := map[string]int{}
	for i, m := range shared.Messages {
		var w, n int
		if _, err := fmt.Sscanf(string(m.Content), `"w%d-%d"`, &w, &n); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		key := fmt.Sprint(w)
		if n != next[key] {
			t.Fatalf("message %d: writer %d message %d arrived before %d", i, w, n, next[key])
		}
		next[key]++
	}
	list, err := st.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != writers+1 {
		t.Errorf("List has %d sessions, want %d", len(list), writers+1)
	}
	for _, s := range list {
		if s.ID != "shared" && (s.Messages != perWriter || s.Turns != perWriter) {
			t.Errorf("%s: %d messages, %d turns, want %d each", s.ID, s.Messages, s.Turns, perWriter)
		}
	}
}

func TestTwoStoresOnOneFile(t *testing.T) {
	ctx := context.Background()
	a, path := openTemp(t)
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := a.Create(ctx, richSession("x")); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, st := range []*Store{a, b} {
		wg.Go(func() {
			for range 20 {
				if err := st.Append(ctx, "x", engine.Message{Role: "user", Content: raw(`"more"`)}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	got, err := b.Load(ctx, "x")
	if err != nil {
		t.Fatal(err)
	}
	if want := len(richSession("x").Messages) + 40; len(got.Messages) != want {
		t.Errorf("got %d messages, want %d", len(got.Messages), want)
	}
}
