package anthropic_test

import (
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/tidwall/gjson"
)

// TestSignedThinkingRoutes is hermes-semantics §7 group E (§4.3): signed
// thinking reaches the wire wherever the upstream can verify it, and only
// there; each step's thinking precedes its tool_use; the prior-thinking
// flag agrees with the stale-thinking predicate; history is unchanged.
func TestSignedThinkingRoutes(t *testing.T) {
	tbl := enginetest.Table(t)
	all := []string{sigPrior, sigLoop1, sigLoop2}
	loop := []string{sigLoop1, sigLoop2}
	texts := []string{"prior thought", "loop one", "loop two"}
	tests := []struct {
		name, baseURL, model string
		sigs                 []string // signatures on the wire, in order
		thinking             []string // unsigned thinking texts on the wire
		signed, prior        bool
		reason               string
	}{
		{"bedrock-opus", "https://bedrock-runtime.us-east-1.amazonaws.com", "us.anthropic.claude-opus-4-8-v1:0", all, nil, true, true, "Bedrock is a Claude platform and opus 4.8 keeps prior thinking"},
		{"bedrock-sonnet45", "https://bedrock-runtime.us-east-1.amazonaws.com", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", loop, nil, true, false, "sonnet 4.5 keeps only the in-flight loop's thinking"},
		{"bedrock-fips", "https://bedrock-runtime-fips.us-gov-west-1.amazonaws.com", "anthropic.claude-opus-4-8", all, nil, true, true, "the FIPS Bedrock host is a Claude platform too"},
		{"vertex", "https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models", "claude-opus-4-8", all, nil, true, true, "Vertex publishers/anthropic is a Claude platform"},
		{"foundry", "https://my-resource.services.ai.azure.com/anthropic", "claude-opus-4-8", all, nil, true, true, "Foundry /anthropic is a Claude platform"},
		{"minimax", "https://api.minimax.io/anthropic", "MiniMax-M2.7", all, nil, true, true, "MiniMax signs its own thinking and wants every turn back"},
		{"minimax-cn", "https://api.minimaxi.com/anthropic", "MiniMax-M3", all, nil, true, true, "the MiniMax China endpoint likewise"},
		{"native-haiku55", "https://api.anthropic.com", "claude-haiku-5-5", all, nil, true, true, "haiku 5.5 reaches the haiku threshold"},
		{"native-opus48", "https://api.anthropic.com", "claude-opus-4-8", all, nil, true, true, "opus 4.8 is past the opus threshold"},
		{"native-haiku45", "https://api.anthropic.com", "claude-haiku-4-5", loop, nil, true, false, "haiku 4.5 keeps only the loop"},
		{"native-sonnet45", "https://api.anthropic.com", "claude-sonnet-4-5", loop, nil, true, false, "sonnet 4.5 keeps only the loop"},
		{"unknown-relay", "https://relay.example.com/v1", "claude-opus-4-8", nil, nil, false, false, "an unknown relay cannot verify signatures: no thinking"},
		{"bedrock-lookalike-host", "https://bedrock-runtime.us-east-1.amazonaws.com.evil.test", "claude-opus-4-8", nil, nil, false, false, "a look-alike host is an unknown relay"},
		{"bedrock-lookalike-path", "https://evil.test/bedrock-runtime.us-east-1.amazonaws.com/model", "claude-opus-4-8", nil, nil, false, false, "a Bedrock host in a path is an unknown relay"},
		{"deepseek-anthropic", "https://api.deepseek.com/anthropic", "deepseek-v4-pro", nil, texts, false, true, "DeepSeek's endpoint gets thinking without signatures"},
		{"deepseek-on-bedrock", "https://bedrock-runtime.us-east-1.amazonaws.com", "deepseek-v4-pro", nil, texts, false, true, "a DeepSeek model on a Claude platform is not signed"},
		{"kimi-coding", "https://api.kimi.com/coding", "kimi-k2.5", nil, texts, false, true, "Kimi gets its thinking back as-is, unsigned"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := loopHistory(t)
			before := snapshot(t, s)
			body := shape(t, tbl, s, tc.baseURL, tc.model)
			if got := wireSignatures(body); !slices.Equal(got, orEmpty(tc.sigs)) {
				t.Errorf("%s: signatures %q, want %q", tc.reason, got, tc.sigs)
			}
			if tc.thinking != nil {
				if got := wireThinking(body); !slices.Equal(got, tc.thinking) {
					t.Errorf("%s: thinking %q, want %q", tc.reason, got, tc.thinking)
				}
			}
			rp := tbl.Dialects.Anthropic.Decide(tc.baseURL, tc.model)
			if got := rp.Replay == engine.ReplaySigned; got != tc.signed {
				t.Errorf("%s: signed route = %v (route %q)", tc.reason, got, rp.Route)
			}
			stale := tbl.Dialects.Anthropic.StaleThinkingReachesWire(tc.baseURL, tc.model)
			onWire := strings.Contains(string(body), "prior thought")
			if stale != tc.prior || onWire != tc.prior {
				t.Errorf("%s: prior thinking: predicate %v, on the wire %v, want %v", tc.reason, stale, onWire, tc.prior)
			}
			assertThinkingBeforeToolUse(t, body)
			if snapshot(t, s) != before {
				t.Errorf("%s: shaping changed the stored history", tc.reason)
			}
		})
	}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// assertThinkingBeforeToolUse checks that no thinking block follows a
// tool_use within an assistant message.
func assertThinkingBeforeToolUse(t *testing.T, body []byte) {
	t.Helper()
	gjson.GetBytes(body, "messages").ForEach(func(i, m gjson.Result) bool {
		seenTool := false
		m.Get("content").ForEach(func(_, b gjson.Result) bool {
			switch b.Get("type").Str {
			case "tool_use":
				seenTool = true
			case "thinking", "redacted_thinking":
				if seenTool {
					t.Errorf("messages.%d: thinking after tool_use", i.Int())
				}
			}
			return true
		})
		return true
	})
}

// TestSteerKeepsLoopThinking: a user note merged after the tool result
// (hermes /steer) does not end the in-flight loop, so a last-turn-only
// model still gets the loop's thinking.
func TestSteerKeepsLoopThinking(t *testing.T) {
	tbl := enginetest.Table(t)
	tests := []struct {
		name   string
		extra  []engine.Message
		want   []string
		reason string
	}{
		{"steer", []engine.Message{enginetest.User("also check London")}, []string{sigLoop1, sigLoop2}, "a steer after a tool result belongs to the tool turn"},
		{"new-question", []engine.Message{{Role: "assistant", Content: []byte(`"done"`)}, enginetest.User("thanks; another question")}, []string{}, "a real user message ends the loop: sonnet 4.5 drops earlier thinking"},
	}
	for _, tc := range tests {
		s := loopHistory(t)
		s.Messages = append(s.Messages, tc.extra...)
		body := shape(t, tbl, s, "https://api.anthropic.com", "claude-sonnet-4-5")
		if got := wireSignatures(body); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %s: signatures %q, want %q", tc.name, tc.reason, got, tc.want)
		}
	}
	// The steer is merged into the tool-result user message.
	s := loopHistory(t)
	s.Messages = append(s.Messages, enginetest.User("also check London"))
	body := shape(t, tbl, s, "https://api.anthropic.com", "claude-sonnet-4-5")
	last := gjson.GetBytes(body, "messages.#(role==\"user\")#|@reverse|0.content")
	if got := last.Get("#").Int(); got != 2 || last.Get("0.type").Str != "tool_result" || last.Get("1.text").Str != "also check London" {
		t.Errorf("the steer is not merged after the tool result: %s", last.Raw)
	}
}
