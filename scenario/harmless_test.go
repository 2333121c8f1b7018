package scenario_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// harmless is the reference engine with two harmless differences on the
// chat wire: no tool-result name, content "" on a tool-call turn.
type harmless struct{ scenario.Reference }

func (h harmless) Shape(ctx context.Context, s *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	b, err := h.Reference.Shape(ctx, s, d, req)
	if err != nil || d.Route.APIMode != engine.ModeChat {
		return b, err
	}
	return differ(b)
}

func (h harmless) Reshape(ctx context.Context, body []byte, s *engine.Session, d engine.Decision, req engine.Request) ([]byte, error) {
	b, err := h.Reference.Reshape(ctx, body, s, d, req)
	if err != nil || d.Route.APIMode != engine.ModeChat {
		return b, err
	}
	return differ(b)
}

func differ(body []byte) ([]byte, error) {
	var root map[string]any
	if err := json.Unmarshal(body, &root); err != nil {
		return nil, err
	}
	msgs, _ := root["messages"].([]any)
	for _, m := range msgs {
		msg := m.(map[string]any)
		if msg["role"] == "tool" {
			delete(msg, "name")
		}
		if calls, _ := msg["tool_calls"].([]any); len(calls) > 0 && msg["content"] == nil {
			msg["content"] = ""
		}
	}
	return json.Marshal(root)
}

// TestHarmlessDifferencesAreJudged is the "done when": an
// implementation that differs from the reference only in harmless,
// profile-declared ways is judged on every chat cell, with the reference's
// verdict on each. Under strict replay the same implementation is left
// unverified, which is what the declared differences fix.
func TestHarmlessDifferencesAreJudged(t *testing.T) {
	f, profiles := scenariotest.Committed(t)
	var chat []string
	for _, target := range f.Targets {
		if target.Route.APIMode == engine.ModeChat {
			chat = append(chat, target.ID)
		}
	}
	ref, err := (&scenario.Runner{Matrix: f, Profiles: profiles, CassetteDir: "../cassettes"}).RunMatrix(context.Background(), chat, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	impl := variant{name: "harmless", t: &f.Table, wrap: func(r scenario.Reference) scenario.Implementation { return harmless{r} }}
	for _, strict := range []bool{false, true} {
		got, err := (&scenario.Runner{Matrix: f, Profiles: profiles, CassetteDir: "../cassettes", Engine: impl, Expect: f, StrictReplay: strict}).RunMatrix(context.Background(), chat, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		unverified := 0
		for i, c := range got.Cells {
			want := ref.Cells[i]
			if c.Status == report.StatusUnverified {
				unverified++
			}
			if !strict && c.Status != want.Status {
				t.Errorf("%s = %s (%s), the reference's is %s", c.ID(), c.Status, c.Detail, want.Status)
			}
		}
		if strict && unverified == 0 {
			t.Error("under strict replay no cell is unverified: the harmless differences are not exercised")
		}
		if !strict && unverified != 0 {
			t.Errorf("%d cells unverified", unverified)
		}
	}
}
