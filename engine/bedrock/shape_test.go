package bedrock_test

import (
	"encoding/json"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"slices"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/bedrock"
	"github.com/tidwall/gjson"
)

func TestPathAndRequestShape(t *testing.T) {
	tbl := enginetest.Table(t)
	dl := bedrock.Dialect{Table: tbl}
	r := engine.Route{APIMode: engine.ModeBedrockConverse, BaseURL: region, Model: "us.anthropic.claude-opus-4-6-v1:0"}
	if p := dl.Path(r, false); p != "/model/us.anthropic.claude-opus-4-6-v1%3A0/converse" {
		t.Errorf("path %q", p)
	}
	if p := dl.Path(r, true); p != "/model/us.anthropic.claude-opus-4-6-v1%3A0/converse-stream" {
		t.Errorf("stream path %q", p)
	}
	s := &engine.Session{Messages: []engine.Message{{Role: "system", Content: json.RawMessage(`"Be brief."`)}, enginetest.User("hi")}}
	req := engine.Request{System: "Helper.", Stream: true, Tools: []engine.Tool{{Name: "weather", Description: "by city", Parameters: json.RawMessage(`{"type":"object"}`)}, {Name: "clock"}}}
	tests := []struct {
		model, want, reason string
	}{
		{"us.anthropic.claude-opus-4-6-v1:0",
			`{"messages":[{"role":"user","content":[{"text":"hi"}]}],"system":[{"text":"Helper."},{"text":"Be brief."}],"toolConfig":{"tools":[{"toolSpec":{"name":"weather","description":"by city","inputSchema":{"json":{"type":"object"}}}},{"toolSpec":{"name":"clock","inputSchema":{"json":{"type":"object"}}}}]},"inferenceConfig":{"maxTokens":16000},"additionalModelRequestFields":{"thinking":{"type":"enabled","budget_tokens":8000}}}`,
			"Claude gets thinking requested; no model and no stream key in the body"},
		{"moonshotai.kimi-k3",
			`{"messages":[{"role":"user","content":[{"text":"hi"}]}],"system":[{"text":"Helper."},{"text":"Be brief."}],"toolConfig":{"tools":[{"toolSpec":{"name":"weather","description":"by city","inputSchema":{"json":{"type":"object"}}}},{"toolSpec":{"name":"clock","inputSchema":{"json":{"type":"object"}}}}]},"inferenceConfig":{"maxTokens":16000}}`,
			"a model that reasons on its own gets no thinking field"},
		{"us.anthropic.claude-opus-4-7-v1:0",
			`{"messages":[{"role":"user","content":[{"text":"hi"}]}],"system":[{"text":"Helper."},{"text":"Be brief."}],"toolConfig":{"tools":[{"toolSpec":{"name":"weather","description":"by city","inputSchema":{"json":{"type":"object"}}}},{"toolSpec":{"name":"clock","inputSchema":{"json":{"type":"object"}}}}]},"inferenceConfig":{"maxTokens":16000},"additionalModelRequestFields":{"thinking":{"type":"adaptive","display":"summarized"}}}`,
			"Opus 4.7 refuses a thinking budget (anthropic.adaptive_thinking): it gets adaptive thinking"},
	}
	for _, tc := range tests {
		r.Model = tc.model
		body, err := dl.Shape(s, tbl.Decide(r, 0), req)
		if err != nil {
			t.Fatal(err)
		}
		if string(body) != tc.want {
			t.Errorf("%s: %s\n got: %s\nwant: %s", tc.model, tc.reason, body, tc.want)
		}
	}
}

// TestReplayPolicy: the per-model contract of matrix.yaml decides what a
// stored turn's reasoning becomes on the wire.
func TestReplayPolicy(t *testing.T) {
	tbl := enginetest.Table(t)
	turn := capture(t, wholeCases[1].body)
	hist := []engine.Message{enginetest.User("weather?"), turn, enginetest.ToolResult("tooluse_1", "sunny")}
	reasoning := `{"reasoningContent":{"reasoningText":{"text":"need the tool","signature":"` + sigB + `"}}}`
	tests := []struct {
		model, policy string
		want          string // the assistant message's content
		reason        string
	}{
		{"us.anthropic.claude-opus-4-6-v1:0", "claude",
			`[{"reasoningContent":{"redactedContent":"` + blobR + `"}},` + reasoning + `,{"text":"Looking."},{"toolUse":{"toolUseId":"tooluse_1","name":"weather","input":{"city":"Paris"}}}]`,
			"signed: every reasoning member its own block, byte for byte, in order"},
		{"moonshotai.kimi-k3", "unsigned-reasoners",
			`[{"reasoningContent":{"redactedContent":"` + blobR + `"}},{"reasoningContent":{"reasoningText":{"text":"need the tool"}}},{"text":"Looking."},{"toolUse":{"toolUseId":"tooluse_1","name":"weather","input":{"city":"Paris"}}}]`,
			"unsigned: reasoningText without its signature"},
		{"us.deepseek.r1-v1:0", "deepseek",
			`[{"text":"Looking."},{"toolUse":{"toolUseId":"tooluse_1","name":"weather","input":{"city":"Paris"}}}]`,
			"stripped: no reasoning at all"},
		{"anthropic.claude-3-5-sonnet-20240620-v1:0", "claude-legacy",
			`[{"text":"Looking."},{"toolUse":{"toolUseId":"tooluse_1","name":"weather","input":{"city":"Paris"}}}]`,
			"a Claude model without thinking gets none"},
		{"qwen.qwen3-235b", "default",
			`[{"text":"Looking."},{"toolUse":{"toolUseId":"tooluse_1","name":"weather","input":{"city":"Paris"}}}]`,
			"an unlisted model is stripped"},
	}
	for _, tc := range tests {
		s := &engine.Session{Messages: hist}
		before := snapshot(t, s)
		if p := tbl.Dialects.Converse.For(tc.model); p.ID != tc.policy {
			t.Errorf("%s: policy %s, want %s", tc.model, p.ID, tc.policy)
		}
		body := shape(t, tbl, s, tc.model)
		if got := gjson.GetBytes(body, "messages.1.content").Raw; got != tc.want {
			t.Errorf("%s: %s\n got: %s\nwant: %s", tc.model, tc.reason, got, tc.want)
		}
		if snapshot(t, s) != before {
			t.Errorf("%s: shaping changed the stored history", tc.model)
		}
	}
}

// TestReplayFromItems: a turn without native blocks (captured on another
// route) replays from its Anthropic-format reasoning_details items, and a
// turn whose native blocks fell out of step with its visible text replays
// from its standard view.
func TestReplayFromItems(t *testing.T) {
	tbl := enginetest.Table(t)
	claude := "us.anthropic.claude-opus-4-6-v1:0"
	items := engine.Message{Role: "assistant", Content: json.RawMessage(`"hi"`), ReasoningContent: engine.Str("t"),
		ReasoningDetails: []json.RawMessage{json.RawMessage(`{"type":"thinking","thinking":"t","signature":"S1"}`), json.RawMessage(`{"type":"redacted_thinking","data":"R1"}`), engine.NewRecord(engine.NativeValues{ThoughtSignature: "G"})}}
	edited := capture(t, wholeCases[0].body)
	edited.Content = json.RawMessage(`"edited text"`)
	chat := engine.Message{Role: "assistant", Content: json.RawMessage(`"hi"`), ReasoningContent: engine.Str("chat thought")}
	tests := []struct {
		name, model string
		m           engine.Message
		want        string
		reason      string
	}{
		{"items", claude, items, `[{"reasoningContent":{"reasoningText":{"text":"t","signature":"S1"}}},{"reasoningContent":{"redactedContent":"R1"}},{"text":"hi"}]`, "Anthropic-format items in order; the private record never"},
		{"edited", claude, edited, `[{"reasoningContent":{"reasoningText":{"text":"Count the r's.\n3.","signature":"` + sigA + `"}}},{"text":"edited text"}]`, "native blocks out of step with the text: the standard view wins"},
		{"chat-unsigned", "moonshotai.kimi-k3", chat, `[{"reasoningContent":{"reasoningText":{"text":"chat thought"}}},{"text":"hi"}]`, "an unsigned model reads readable reasoning captured elsewhere"},
		{"chat-signed", claude, chat, `[{"text":"hi"}]`, "unsigned reasoning never goes to a model that signs"},
	}
	for _, tc := range tests {
		s := &engine.Session{Messages: []engine.Message{enginetest.User("q"), tc.m, enginetest.User("next")}}
		if got := gjson.GetBytes(shape(t, tbl, s, tc.model), "messages.1.content").Raw; got != tc.want {
			t.Errorf("%s: %s\n got: %s\nwant: %s", tc.name, tc.reason, got, tc.want)
		}
	}
}

func TestCarried(t *testing.T) {
	body := []byte(`{"messages":[{"role":"assistant","content":[{"reasoningContent":{"reasoningText":{"text":"a","signature":"s"}}},{"reasoningContent":{"redactedContent":"r"}}]}]}`)
	if got := (bedrock.Dialect{}).Carried(body); !slices.Equal(got, []string{"reasoningText", "signature", "redactedContent"}) {
		t.Errorf("carried %q", got)
	}
	if got := (bedrock.Dialect{}).Carried([]byte(`{"messages":[{"role":"user","content":[{"text":"x"}]}]}`)); len(got) != 0 {
		t.Errorf("a request without reasoning carries %q", got)
	}
}
