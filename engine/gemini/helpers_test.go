package gemini_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/gemini"
	"github.com/replaycheck/replaycheck/engine/store"
	"github.com/tidwall/gjson"
)

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func capture(t testing.TB, body string) engine.Message {
	t.Helper()
	m, err := gemini.Dialect{}.Capture([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// shape builds a Gemini request and checks that every signature on the
// wire is one the history holds.
func shape(t testing.TB, s *engine.Session, req engine.Request) []byte {
	t.Helper()
	body, err := gemini.Dialect{}.Shape(s, engine.Decision{}, req)
	if err != nil {
		t.Fatal(err)
	}
	if !gjson.ValidBytes(body) {
		t.Fatalf("shaped body is not JSON: %s", body)
	}
	held := map[string]bool{}
	for _, m := range s.Messages {
		held[m.NativeValues().ThoughtSignature] = true
		for _, tc := range m.ToolCalls {
			held[engine.ThoughtSignatureOf(tc.ExtraContent)] = true
		}
	}
	gjson.GetBytes(body, "contents").ForEach(func(_, c gjson.Result) bool {
		c.Get("parts").ForEach(func(_, p gjson.Result) bool {
			if sig := p.Get("thoughtSignature").Str; sig != "" && !held[sig] {
				t.Errorf("the request carries a signature the history does not hold: %.30q", sig)
			}
			return true
		})
		return true
	})
	return body
}

func snapshot(t testing.TB, s *engine.Session) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// resume stores a session, closes the store and loads it back.
func resume(t *testing.T, s *engine.Session) *engine.Session {
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
