package engine_test

import (
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

func TestRefusedCarriers(t *testing.T) {
	all := engine.NewCarrierSet(engine.ReasoningContent, engine.Reasoning, engine.ReasoningDetails)
	rc := engine.NewCarrierSet(engine.ReasoningContent)
	tests := []struct {
		status int
		body   string
		sent   engine.CarrierSet
		want   string
		reason string
	}{
		{400, `Extra inputs are not permitted, field: 'messages[1].reasoning_details'`, all, "reasoning_details", "A16 naming RD drops RD only"},
		{400, `Extra inputs are not permitted, field: 'messages[3].reasoning'`, all, "reasoning", "Fireworks wording names R in a message path"},
		{422, `{"detail":[{"type":"extra_forbidden","loc":["body","messages",6,"assistant","reasoning_content"],"msg":"Extra inputs are not permitted","input":"\n"}]}`, all, "reasoning_content,reasoning,reasoning_details", "Mistral: naming RC drops every sent carrier"},
		{400, `{"error":{"message":"'messages.4' : for 'role:assistant' the following must be satisfied[('messages.4' : property 'reasoning_content' is unsupported)]","type":"invalid_request_error"}}`, rc, "reasoning_content", "Groq wording"},
		{400, `{"message":"messages.2.assistant.reasoning_content: property 'messages.2.assistant.reasoning_content' is unsupported","type":"invalid_request_error","param":"validation_error","code":"wrong_api_format"}`, all, "reasoning_content,reasoning,reasoning_details", "Cerebras flat body"},
		{400, `{"error":{"message":"Provider returned error","code":400}}`, all, "none", "A15 a gateway content error is not a rejection"},
		{400, `reasoning_content is not allowed to be empty`, rc, "none", "a value complaint does not count"},
		{400, `Unknown parameter: 'reasoning'.`, all, "none", "a top-level reasoning parameter is not a message carrier"},
		{400, `unknown field "reasoning_details"`, rc, "none", "a carrier the request did not send is not learnt"},
		{500, `Extra inputs are not permitted, field: 'messages[1].reasoning_details'`, all, "none", "only 4xx counts"},
		{400, `Additional properties are not allowed ('reasoning_content_extra' was unexpected)`, all, "none", "a longer key is not the carrier"},
		{400, `Invalid JSON payload received. Unknown name "reasoning": Cannot find field.`, all, "none", "Gemini's wording is not in the phrase list"},
	}
	for _, tt := range tests {
		if got := engine.RefusedCarriers(tt.status, []byte(tt.body), tt.sent).String(); got != tt.want {
			t.Errorf("RefusedCarriers(%d, %q) = %s, want %s: %s", tt.status, tt.body, got, tt.want, tt.reason)
		}
	}
}

func TestNamedCarriers(t *testing.T) {
	tests := []struct {
		body   string
		want   string
		reason string
	}{
		{`{"error":{"message":"The ` + "`reasoning_content`" + ` in the thinking mode must be passed back to the API."}}`, "reasoning_content", "a value complaint names its field too: the wording decides, not the name"},
		{`messages[2].reasoning_details.0.type: invalid`, "reasoning_details", "RD as a whole word"},
		{`messages[1]: unknown field "reasoning"`, "reasoning", "R in a message path"},
		{`Unknown parameter: 'reasoning'.`, "none", "R alone is the top-level parameter"},
		{`'reasoning_content_extra' was unexpected`, "none", "a longer key is not the carrier"},
	}
	for _, tt := range tests {
		if got := engine.NamedCarriers([]byte(tt.body)).String(); got != tt.want {
			t.Errorf("NamedCarriers(%q) = %s, want %s: %s", tt.body, got, tt.want, tt.reason)
		}
	}
}

func TestLearnCarrierRefusal(t *testing.T) {
	table := enginetest.Table(t)
	nous := engine.Route{APIMode: engine.ModeChat, Provider: " Nous ", BaseURL: "https://inference-api.nousresearch.com/v1", Model: " z-ai/glm-5.3-flash:US "}
	deepseek := engine.Route{APIMode: engine.ModeChat, Provider: "deepseek", BaseURL: "https://api.deepseek.com", Model: "deepseek-v4"}
	all := engine.NewCarrierSet(engine.ReasoningContent, engine.Reasoning, engine.ReasoningDetails)
	body := []byte(`Extra inputs are not permitted, field: 'messages[1].reasoning_details'`)

	s := &engine.Session{}
	if got := engine.LearnCarrierRefusal(s, table, nous, all, 400, body); got.String() != "reasoning_details" {
		t.Fatalf("first refusal learnt %s, want reasoning_details", got)
	}
	key := engine.RouteKey{Provider: "nous", Host: "inference-api.nousresearch.com", Model: "z-ai/glm-5.3-flash:US"}
	if got := s.Config.RejectedFor(key); got.String() != "reasoning_details" {
		t.Fatalf("recorded under %+v: %s (provider trimmed and lower-cased, model trimmed)", key, got)
	}
	if got := engine.LearnCarrierRefusal(s, table, nous, all, 400, body); !got.Empty() {
		t.Errorf("A18 the same refusal again learnt %s: it must not loop", got)
	}
	sibling := nous
	sibling.Model = "moonshotai/kimi-k3"
	if got := s.Config.RejectedFor(sibling.Key()); !got.Empty() {
		t.Errorf("A20 a sibling model on the same gateway lost %s", got)
	}
	mustEcho := &engine.Session{}
	for _, b := range []string{
		`reasoning_content is not allowed to be empty`,
		`Extra inputs are not permitted, field: 'messages[1].reasoning_content'`,
	} {
		if got := engine.LearnCarrierRefusal(mustEcho, table, deepseek, engine.NewCarrierSet(engine.ReasoningContent), 400, []byte(b)); !got.Empty() {
			t.Errorf("A22 must-echo route learnt %s from %q: RC is mandatory there", got, b)
		}
	}
	anthropic := nous
	anthropic.APIMode = engine.ModeAnthropic
	if got := engine.LearnCarrierRefusal(&engine.Session{}, table, anthropic, all, 400, body); !got.Empty() {
		t.Errorf("a non-chat route learnt %s", got)
	}
}
