package evidence

import (
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/report"
	"github.com/tidwall/gjson"
)

// Responses conversations written for these tests (no provider recorded
// them): a reasoning item leads to a function call; the client replays
// the output items, without their output status as the recorded clients
// do, and the call's output.
const (
	responsesURL = "https://api.openai.com/v1/responses"
	rsTurn1      = `{"model":"gpt-5.1","store":false,"include":["reasoning.encrypted_content"],"input":[{"role":"user","content":"Is the cache warm?"}]}`
	rsAnswer1    = `{"id":"resp_1","object":"response","status":"completed","model":"gpt-5.1","output":[` +
		`{"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"Check the notes."}],"encrypted_content":"gAAAAABenc1"},` +
		`{"id":"fc_1","type":"function_call","status":"completed","arguments":"{}","call_id":"call_1","name":"lookup"}]}`
	rsTurn2 = `{"model":"gpt-5.1","store":false,"include":["reasoning.encrypted_content"],"input":[{"role":"user","content":"Is the cache warm?"},` +
		`{"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"Check the notes."}],"encrypted_content":"gAAAAABenc1"},` +
		`{"id":"fc_1","type":"function_call","arguments":"{}","call_id":"call_1","name":"lookup"},` +
		`{"type":"function_call_output","call_id":"call_1","output":"warm"}]}`
	rsAnswer2 = `{"id":"resp_2","object":"response","status":"completed","model":"gpt-5.1","output":[` +
		`{"id":"msg_2","type":"message","status":"completed","role":"assistant","content":[{"type":"output_text","annotations":[],"text":"Yes."}]}]}`
)

func TestResponsesTurns(t *testing.T) {
	w, _ := wireOf(engine.ModeResponses)
	body := `{"input":["q",{"role":"user","content":"a"},{"type":"reasoning","id":"rs"},{"type":"function_call","call_id":"c"},` +
		`{"type":"function_call_output","call_id":"c","output":"o"},{"type":"reasoning","id":"rs2"},{"type":"message","role":"assistant","content":[]},` +
		`{"role":"developer","content":"d"},{"type":"web_search_call","id":"ws"}]}`
	var got []string
	for _, turn := range w.turns([]byte(body)) {
		kind := "client"
		if turn.assistant {
			kind = "model"
		}
		n := 1
		if turn.v.IsArray() {
			n = len(turn.v.Array())
		}
		got = append(got, kind+"@"+strings.Repeat("|", n)+string(rune('0'+turn.at)))
	}
	want := []string{"client@|0", "client@|1", "model@||2", "client@|4", "model@||5", "client@|7", "model@|8"}
	if !slices.Equal(got, want) {
		t.Errorf("turns %v, want %v: a bare string, user, developer messages and a call's output are the client's; each run of output items one turn of the model", got, want)
	}
}

func TestResponsesHistory(t *testing.T) {
	tests := []struct {
		item, want, err, reason string
	}{
		{`"q"`, `{"role":"user","content":"q"}`, "", "a bare string is a user message"},
		{`{"role":"developer","content":[{"type":"input_text","text":"d"}]}`, `{"role":"developer","content":[{"type":"input_text","text":"d"}]}`, "", "a message keeps its role and content parts"},
		{`{"type":"function_call_output","call_id":"c","output":"warm"}`, `{"role":"tool","content":"warm","tool_call_id":"c"}`, "", "a call's output answers its call"},
		{`{"type":"function_call_output","call_id":"c"}`, "", "a function_call_output with no output", "an output item without output is refused"},
		{`{"type":"item_reference","id":"x"}`, "", `an input item of type "item_reference" the evidence checks do not read`, "an unknown client item is named"},
	}
	for _, tt := range tests {
		msgs, err := responsesHistory(gjson.Parse(tt.item))
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s: error %v, want %q", tt.reason, err, tt.err)
			}
		case err != nil || len(msgs) != 1:
			t.Errorf("%s: %v %v", tt.reason, msgs, err)
		default:
			if b, _ := msgs[0].MarshalJSON(); string(b) != tt.want {
				t.Errorf("%s: %s, want %s", tt.reason, b, tt.want)
			}
		}
	}
}

func TestHoldsAnswer(t *testing.T) {
	answer := engine.Message{Role: "assistant", Content: []byte(`"The cache is warm."`)}
	tests := []struct {
		turn   string
		holds  bool
		reason string
	}{
		{`{"role":"assistant","content":"The cache is warm."}`, true, "the answer as it was"},
		{`{"role":"assistant","content":"<think>notes</think>\n\nThe cache is warm."}`, true, "reasoning inlined before the answer: added to, not replaced"},
		{`[{"type":"reasoning","id":"rs"},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"The cache is warm."}]}]`, true, "a run of output items holding the answer's text"},
		{`{"role":"assistant","content":"The meaning of life is 42"}`, false, "a history the client rewrote"},
	}
	for _, tt := range tests {
		if got := holdsAnswer(gjson.Parse(tt.turn), answer); got != tt.holds {
			t.Errorf("%s: holdsAnswer = %v", tt.reason, got)
		}
	}
	if !holdsAnswer(gjson.Parse(`{"role":"assistant","content":"anything"}`), engine.Message{Role: "assistant", Content: []byte(`null`)}) {
		t.Error("an answer without text (a tool call) proves nothing either way")
	}
}

// TestResponsesReproduction runs the checks over a Responses tool loop:
// the engine, fed the first answer, replays its output items in position
// and byte for byte, and the edited history of a client is reported, not
// judged.
func TestResponsesReproduction(t *testing.T) {
	dir := t.TempDir()
	writeCassette(t, dir, "openai-responses", "tool-loop", []rt{{responsesURL, rsTurn1, 200, rsAnswer1, ""}, {responsesURL, rsTurn2, 200, rsAnswer2, ""}})
	// Alone in its directory, so no other recording shows the provider
	// accepting the encrypted content the client left out.
	alone := t.TempDir()
	lost := strings.Replace(rsTurn2, `,"encrypted_content":"gAAAAABenc1"`, "", 1)
	writeCassette(t, alone, "openai-responses", "lost-encrypted", []rt{{responsesURL, rsTurn1, 200, rsAnswer1, ""}, {responsesURL, lost, 200, rsAnswer2, ""}})
	got := append(runOne(t, dir), runOne(t, alone)...)
	byID := map[string]exchangeResult{}
	for _, g := range got {
		byID[g.id] = g
	}
	tests := []struct {
		id        string
		repro     report.Verdict
		detail    string
		scenarios []string
		reason    string
	}{
		{"openai-responses/recorded/tool-loop.yaml#0", report.VerdictNA, "the request replays no assistant turn", nil, "a first turn"},
		{"openai-responses/recorded/tool-loop.yaml#1", report.VerdictPass, "the engine sends the 1 assistant turn the client sent", []string{"carriers", "signed-roundtrip"},
			"the reasoning item and the call it led to go back in position, byte for byte"},
		{"openai-responses/recorded/lost-encrypted.yaml#1", report.VerdictFail, "1 failing", []string{"carriers", "signed-roundtrip"},
			"the engine sends encrypted content the client did not, and no recording shows the provider accepting it there"},
	}
	for _, tc := range tests {
		g, ok := byID[tc.id]
		if !ok {
			t.Fatalf("%s: no such exchange in %v", tc.id, got)
		}
		if g.repro.Verdict != tc.repro || !strings.Contains(g.repro.Detail, tc.detail) || !slices.Equal(g.repro.Scenarios, tc.scenarios) {
			t.Errorf("%s: %s: reproduction %s %q %v, want %s %q %v\n findings %+v", tc.id, tc.reason, g.repro.Verdict, g.repro.Detail, g.repro.Scenarios, tc.repro, tc.detail, tc.scenarios, g.repro.Findings)
		}
		if g.capture.Verdict != report.VerdictPass {
			t.Errorf("%s: capture %s %q: the answers' carriers must be stored verbatim", tc.id, g.capture.Verdict, g.capture.Detail)
		}
	}
}
