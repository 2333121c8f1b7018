package engine_test

import (
	"encoding/json"
	"fmt"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

// longSession builds n turns: a user question, an assistant tool call with
// reasoning (RC, R, an encrypted RD item), a tool result, an answer.
func longSession(n int, reasoningBytes int) *engine.Session {
	s := &engine.Session{ID: "long", Messages: []engine.Message{{Role: "system", Content: json.RawMessage(`"be brief"`)}}}
	pad := strings.Repeat("x", reasoningBytes)
	for i := 0; i < n; i++ {
		r := fmt.Sprintf("turn %d reasoning %s", i, pad)
		s.Messages = append(s.Messages,
			engine.Message{Role: "user", Content: json.RawMessage(fmt.Sprintf(`"question %d"`, i))},
			engine.Message{Role: "assistant", Content: json.RawMessage(`null`), ReasoningContent: engine.Str(r), Reasoning: engine.Str(r),
				ReasoningDetails: []json.RawMessage{json.RawMessage(fmt.Sprintf(`{"type":"reasoning.encrypted","data":"ZW5j%d"}`, i))},
				ToolCalls:        []engine.ToolCall{{ID: fmt.Sprintf("c%d", i), Type: "function", Function: engine.FunctionCall{Name: "f", Arguments: "{}"}}}},
			engine.Message{Role: "tool", ToolCallID: fmt.Sprintf("c%d", i), Content: json.RawMessage(`"ok"`)},
			engine.Message{Role: "assistant", Content: json.RawMessage(fmt.Sprintf(`"answer %d"`, i)), ReasoningContent: engine.Str(r)},
		)
	}
	return s
}

func TestCompactKeepsReasoningOfKeptTurns(t *testing.T) {
	table := enginetest.Table(t)
	tests := []struct {
		route  engine.Route
		reason string
	}{
		{engine.Route{Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "m"}, "all three carriers reach the wire"},
		{engine.Route{Provider: "deepseek", BaseURL: "https://api.deepseek.com", Model: "deepseek-v4"}, "must-echo route"},
		{engine.Route{Provider: "mistral", BaseURL: "https://api.mistral.ai/v1", Model: "m"}, "strict route: stale thinking never reaches the wire"},
	}
	for _, tt := range tests {
		s := longSession(20, 400)
		live := mustJSONE(t, s)
		d := table.Decide(tt.route, 0)
		threshold := engine.Estimate(s.Messages, d) / 3
		res := engine.Compact(s, d, engine.CompactOptions{Threshold: threshold})
		if mustJSONE(t, s) != live {
			t.Fatalf("%s: the live session was edited", tt.reason)
		}
		if res.Dropped == 0 || res.CannotShrink || res.After > threshold {
			t.Fatalf("%s: dropped %d, after %d > threshold %d or cannot shrink %v", tt.reason, res.Dropped, res.After, threshold, res.CannotShrink)
		}
		if got := engine.Estimate(res.Session.Messages, d); got != res.After {
			t.Errorf("%s: reported estimate %d, recomputed %d", tt.reason, res.After, got)
		}
		again := engine.Compact(res.Session, d, engine.CompactOptions{Threshold: threshold})
		if again.Dropped != 0 || again.Session != res.Session {
			t.Errorf("%s: compaction ran again on an unchanged history", tt.reason)
		}
		out := res.Session.Messages
		if out[0].Role != "system" || !strings.Contains(string(out[1].Content), "Summary of") {
			t.Fatalf("%s: want system then the summary, got %s / %s", tt.reason, out[0].Role, out[1].Content)
		}
		tail := s.Messages[len(s.Messages)-(len(out)-2):]
		for i, m := range out[2:] {
			if mustJSONE(t, m) != mustJSONE(t, tail[i]) {
				t.Errorf("%s: kept message %d lost data: kept turns keep reasoning and encrypted items", tt.reason, i)
			}
		}
	}
}

func TestCompactPredicateParity(t *testing.T) {
	table := enginetest.Table(t)
	for _, r := range []engine.Route{
		{Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "m"},
		{Provider: "mistral", BaseURL: "https://api.mistral.ai/v1", Model: "m"},
	} {
		d := table.Decide(r, 0)
		small, big := longSession(3, 10), longSession(3, 4000)
		grow := engine.Estimate(big.Messages, d) - engine.Estimate(small.Messages, d)
		reaches := engine.StaleThinkingReachesWire(d)
		// Only the newest assistant row is charged when stale thinking does
		// not reach the wire: 4000-10 bytes ≈ 998 tokens for it alone.
		if reaches && grow < 6*900 || !reaches && grow > 1100 {
			t.Errorf("%s: estimate grew by %d with stale-thinking predicate %v", r.Provider, grow, reaches)
		}
	}
	opaque := longSession(2, 10)
	opaqueBig := longSession(2, 10)
	opaqueBig.Messages[2].ReasoningDetails = []json.RawMessage{json.RawMessage(`{"type":"reasoning.encrypted","data":"` + strings.Repeat("A", 100000) + `"}`)}
	d := table.Decide(engine.Route{Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "m"}, 0)
	if a, b := engine.Estimate(opaque.Messages, d), engine.Estimate(opaqueBig.Messages, d); a != b {
		t.Errorf("opaque bytes growth changed the estimate %d -> %d: opaque items have a fixed price", a, b)
	}
}

func TestCompactCannotShrink(t *testing.T) {
	table := enginetest.Table(t)
	d := table.Decide(engine.Route{Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "m"}, 0)
	s := longSession(1, 40000)
	res := engine.Compact(s, d, engine.CompactOptions{Threshold: 100})
	if !res.CannotShrink || res.Session != s {
		t.Fatalf("one huge turn over the threshold: want CannotShrink and the history unchanged, got %+v", res)
	}
}

func TestCompactDropsShadowedCheckpoints(t *testing.T) {
	table := enginetest.Table(t)
	d := table.Decide(engine.Route{Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "m"}, 0)
	s := longSession(6, 200)
	n := len(s.Messages)
	s.Messages[n-7].ReasoningDetails = append(s.Messages[n-7].ReasoningDetails, json.RawMessage(`{"type":"compaction","encrypted_content":"old"}`))
	s.Messages[n-1].ReasoningDetails = []json.RawMessage{json.RawMessage(`{"type":"compaction","encrypted_content":"new"}`)}
	res := engine.Compact(s, d, engine.CompactOptions{Threshold: engine.Estimate(s.Messages, d) * 2 / 3})
	var checkpoints []string
	for _, m := range res.Session.Messages {
		for _, it := range m.ReasoningDetails {
			if engine.ItemType(it) == engine.CheckpointType {
				checkpoints = append(checkpoints, string(it))
			}
		}
	}
	if len(checkpoints) != 1 || !strings.Contains(checkpoints[0], "new") {
		t.Errorf("checkpoints after compaction: %v, want only the newest", checkpoints)
	}
	if got := len(res.Session.Messages[len(res.Session.Messages)-7].ReasoningDetails); got != 1 {
		t.Errorf("the shadowed checkpoint's turn kept %d RD items, want its encrypted item only", got)
	}
}

func TestBranchCopiesEverything(t *testing.T) {
	s := longSession(2, 10)
	s.Messages[2].SetRecord(engine.NativeValues{ReasoningOpaque: "O"})
	s.Messages[2].Native = &engine.NativeTurn{Dialect: engine.ModeAnthropic, Blocks: []json.RawMessage{json.RawMessage(`{"type":"thinking","thinking":"t","signature":"s"}`)}}
	s.Config.AddRejection(engine.RouteKey{Provider: "p", Host: "h", Model: "m"}, engine.NewCarrierSet(engine.Reasoning))
	b := engine.Branch(s, "branch-1")
	if b.ID != "branch-1" {
		t.Fatal("branch id")
	}
	parent := mustJSONE(t, s)
	b.ID = s.ID
	if mustJSONE(t, b) != parent {
		t.Fatal("the branch does not carry the parent's history and config")
	}
	*b.Messages[2].ReasoningContent = "changed"
	b.Messages[2].ReasoningDetails[0][5] = 'X'
	b.Config.RejectedCarriers[0].Carriers[0] = engine.ReasoningContent
	if mustJSONE(t, s) != parent {
		t.Fatal("editing the branch changed the parent: the branch must own its history")
	}
}

func mustJSONE(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestNativeIssuerSurvivesStorageAndClone checks that a native turn's
// issuer is part of the storage form and of every copy (branch, compaction).
func TestNativeIssuerSurvivesStorageAndClone(t *testing.T) {
	m := engine.Message{Role: "assistant", Content: json.RawMessage(`null`), Native: &engine.NativeTurn{
		Dialect: engine.ModeResponses, Blocks: []json.RawMessage{json.RawMessage(`{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAAA"}`)},
		Issuer: &engine.RouteKey{Provider: "openai", Host: "api.openai.com", Model: "gpt-5.1"},
	}}
	b, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"role":"assistant","content":null,"native":{"dialect":"responses","blocks":[{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAAA"}],"issuer":{"provider":"openai","host":"api.openai.com","model":"gpt-5.1"}}}`
	if string(b) != want {
		t.Fatalf("storage form\n got %s\nwant %s", b, want)
	}
	var back engine.Message
	if err := json.Unmarshal(b, &back); err != nil || back.Native.Issuer == nil || *back.Native.Issuer != *m.Native.Issuer {
		t.Fatalf("reloaded issuer %+v, %v", back.Native, err)
	}
	c := m.Clone()
	c.Native.Issuer.Host = "changed"
	if m.Native.Issuer.Host != "api.openai.com" {
		t.Error("a clone shares the issuer with its original")
	}
}
