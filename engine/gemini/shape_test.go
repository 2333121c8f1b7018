package gemini_test

import (
	"encoding/json"
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/gemini"
	"github.com/tidwall/gjson"
)

func TestPathAndRequestShape(t *testing.T) {
	r := engine.Route{APIMode: engine.ModeGemini, Model: "gemini-3-pro-preview"}
	if p := (gemini.Dialect{}).Path(r, false); p != "/models/gemini-3-pro-preview:generateContent" {
		t.Errorf("path %q", p)
	}
	r.Model = "models/gemini-3-pro-preview"
	if p := (gemini.Dialect{}).Path(r, true); p != "/models/gemini-3-pro-preview:streamGenerateContent?alt=sse" {
		t.Errorf("stream path %q", p)
	}
	call := capture(t, wholeCases[1].body)
	s := &engine.Session{Messages: []engine.Message{
		{Role: "system", Content: json.RawMessage(`"Be brief."`)},
		enginetest.User("weather and time?"),
		call,
		enginetest.ToolResult(call.ToolCalls[0].ID, `{"temp":21}`),
		enginetest.ToolResult(call.ToolCalls[1].ID, "noon"),
	}}
	req := engine.Request{System: "Helper.", Tools: []engine.Tool{{Name: "weather", Description: "by city", Parameters: json.RawMessage(`{"type":"object","additionalProperties":false}`)}, {Name: "clock"}}}
	want := `{"contents":[` +
		`{"role":"user","parts":[{"text":"weather and time?"}]},` +
		`{"role":"model","parts":[{"functionCall":{"name":"weather","args":{"city":"Paris"}},"thoughtSignature":"` + sigCall + `"},{"functionCall":{"name":"clock","args":{}}}]},` +
		`{"role":"user","parts":[{"functionResponse":{"name":"weather","response":{"temp":21}}},{"functionResponse":{"name":"clock","response":{"result":"noon"}}}]}],` +
		`"systemInstruction":{"parts":[{"text":"Helper."},{"text":"Be brief."}]},` +
		`"tools":[{"functionDeclarations":[{"name":"weather","description":"by city","parametersJsonSchema":{"type":"object","additionalProperties":false}},{"name":"clock"}]}],` +
		`"generationConfig":{"thinkingConfig":{"includeThoughts":true}}}`
	before := snapshot(t, s)
	if got := string(shape(t, s, req)); got != want {
		t.Errorf("request\n got: %s\nwant: %s", got, want)
	}
	if snapshot(t, s) != before {
		t.Error("shaping changed the stored history")
	}
}

func TestShapeModelTurns(t *testing.T) {
	withID := capture(t, wholeCases[2].body)
	thought := capture(t, wholeCases[0].body)
	tests := []struct {
		name   string
		hist   []engine.Message
		want   string // contents
		reason string
	}{
		{"text-signature-last-part", []engine.Message{enginetest.User("389+2?"), thought, enginetest.User("and +1?")},
			`[{"role":"user","parts":[{"text":"389+2?"}]},{"role":"model","parts":[{"text":"391","thoughtSignature":"` + sigText + `"}]},{"role":"user","parts":[{"text":"and +1?"}]}]`,
			"thought parts are not replayed; the text signature rides the last part"},
		{"call-id", []engine.Message{enginetest.User("q"), withID, enginetest.ToolResult("fc_7", "cold")},
			`[{"role":"user","parts":[{"text":"q"}]},{"role":"model","parts":[{"text":"Let me check."},{"functionCall":{"id":"fc_7","name":"weather","args":{"city":"Oslo"}},"thoughtSignature":"` + sigCall2 + `"}]},{"role":"user","parts":[{"functionResponse":{"id":"fc_7","name":"weather","response":{"result":"cold"}}}]}]`,
			"a call id Gemini issued goes back with the call and its response"},
		{"orphan-call", []engine.Message{enginetest.User("q"), withID, enginetest.User("never mind")},
			`[{"role":"user","parts":[{"text":"q"}]},{"role":"model","parts":[{"text":"Let me check."}]},{"role":"user","parts":[{"text":"never mind"}]}]`,
			"a call without its result in the history is not sent"},
		{"signature-after-signed-call", []engine.Message{enginetest.User("q"), func() engine.Message {
			m := withID.Clone()
			m.SetRecord(engine.NativeValues{ThoughtSignature: sigText})
			return m
		}(), enginetest.ToolResult("fc_7", "cold")},
			`[{"role":"user","parts":[{"text":"q"}]},{"role":"model","parts":[{"text":"Let me check."},{"functionCall":{"id":"fc_7","name":"weather","args":{"city":"Oslo"}},"thoughtSignature":"` + sigCall2 + `"},{"text":"","thoughtSignature":"` + sigText + `"}]},{"role":"user","parts":[{"functionResponse":{"id":"fc_7","name":"weather","response":{"result":"cold"}}}]}]`,
			"when the last part is already signed, the text signature gets its own trailing empty part"},
		{"signature-only", []engine.Message{enginetest.User("q"), {Role: "assistant", Content: json.RawMessage(`""`), ExtraContent: engine.GoogleExtraContent(sigText)}, enginetest.User("more")},
			`[{"role":"user","parts":[{"text":"q"}]},{"role":"model","parts":[{"text":"","thoughtSignature":"` + sigText + `"}]},{"role":"user","parts":[{"text":"more"}]}]`,
			"a turn with only a signature keeps it on an empty text part"},
		{"empty-turn", []engine.Message{enginetest.User("q"), {Role: "assistant", Content: json.RawMessage(`""`)}, enginetest.User("more")},
			`[{"role":"user","parts":[{"text":"q"},{"text":"more"}]}]`,
			"an empty model turn is dropped and the user turns merge"},
	}
	for _, tc := range tests {
		body := shape(t, &engine.Session{Messages: tc.hist}, engine.Request{})
		if got := gjson.GetBytes(body, "contents").Raw; got != tc.want {
			t.Errorf("%s: %s\n got: %s\nwant: %s", tc.name, tc.reason, got, tc.want)
		}
	}
}

func TestShapeErrors(t *testing.T) {
	s := &engine.Session{Messages: []engine.Message{
		enginetest.User("q"),
		{Role: "assistant", Content: json.RawMessage("null"), ToolCalls: []engine.ToolCall{{ID: "a", Function: engine.FunctionCall{Name: "f", Arguments: "nope"}}}},
		enginetest.ToolResult("a", "x"),
	}}
	if _, err := (gemini.Dialect{}).Shape(s, engine.Decision{}, engine.Request{}); err == nil || !strings.Contains(err.Error(), "messages.1: tool_calls.0: arguments are not a JSON object") {
		t.Errorf("error %v", err)
	}
}

func TestLearnAndCarried(t *testing.T) {
	s := &engine.Session{}
	body := []byte(`{"error":{"code":400,"message":"Function call is missing a thought_signature in functionCall parts.","status":"INVALID_ARGUMENT"}}`)
	if _, ok := (gemini.Dialect{}).Learn(s, nil, engine.Decision{}, nil, 400, body); ok {
		t.Error("a missing signature cannot be repaired by resending less, and the engine never invents one")
	}
	if got := (gemini.Dialect{}).Carried([]byte(`{"contents":[{"role":"model","parts":[{"text":"a","thoughtSignature":"s"}]}]}`)); len(got) != 1 || got[0] != "thoughtSignature" {
		t.Errorf("carried %q", got)
	}
	if got := (gemini.Dialect{}).Carried([]byte(`{"contents":[{"role":"user","parts":[{"text":"a","thoughtSignature":"s"}]}]}`)); len(got) != 0 {
		t.Errorf("a user part's signature counted: %q", got)
	}
}
