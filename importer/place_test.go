package importer

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
)

func loadMatrix(t *testing.T) *matrix.File {
	t.Helper()
	mf, err := matrix.Load(filepath.Join("..", "matrix.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return mf
}

// TestPlace runs the placement rule over exchanges written for it,
// against the project's matrix.yaml.
func TestPlace(t *testing.T) {
	mf := loadMatrix(t)
	list, err := providers.LoadDir(filepath.Join("..", "providers"))
	if err != nil {
		t.Fatal(err)
	}
	profiles := providers.ByName(list)
	post := func(url, body string) Exchange {
		return Exchange{Method: "POST", URL: url, RequestBody: []byte(body), Status: 200}
	}
	tests := []struct {
		e      Exchange
		forced string
		target string
		note   string // a fragment of the note, or of the unplaced reason
		reason string
	}{
		{post("https://api.deepseek.com/v1/chat/completions", `{"model":"deepseek-v4-flash"}`), "", "deepseek", "",
			"host, path and model are the target's: an exact match"},
		{post("https://api.deepseek.com/chat/completions", `{"model":"deepseek-reasoner"}`), "", "deepseek",
			"model deepseek-reasoner and base URL https://api.deepseek.com is not the target's",
			"another model and path of the same must-echo route decide the same"},
		{post("https://api.anthropic.com/v1/messages", `{"model":"claude-opus-4-6"}`), "", "anthropic", "",
			"/v1/messages is the Anthropic dialect's own path under the target's base URL"},
		{post("https://api.anthropic.com/v1/messages", `{"model":"claude-sonnet-4-5"}`), "", "anthropic-sonnet-4-5", "",
			"a model that drops earlier turns' thinking has a target of its own"},
		{post("https://api.anthropic.com/v1/messages", `{"model":"claude-sonnet-4-5-20250929"}`), "", "anthropic-sonnet-4-5",
			"model claude-sonnet-4-5-20250929 is not the target's (model claude-sonnet-4-5",
			"a dated Sonnet 4.5 goes to the first target that drops earlier turns' thinking"},
		{post("https://api.anthropic.com/v1/messages", `{"model":"claude-haiku-4-5"}`), "", "anthropic-haiku-4-5", "",
			"Haiku 4.5 has its own Anthropic-direct target"},
		{post("https://api.anthropic.com/v1/messages", `{"model":"claude-opus-4-5"}`), "", "anthropic-opus-4-5", "",
			"Opus 4.5, the first Opus that keeps earlier turns' thinking, has its own target"},
		{post("https://api.anthropic.com/v1/messages", `{"model":"claude-opus-4-5-20251101"}`), "", "anthropic",
			"model claude-opus-4-5-20251101 is not the target's (model claude-opus-4-6",
			"a dated Opus 4.5 that keeps earlier turns' thinking goes to the first target that keeps it"},
		{post("https://api.kimi.com/coding/v1/messages", `{"model":"kimi-k2.6"}`), "", "kimi-anthropic", "",
			"Kimi's Anthropic endpoint has its own target, apart from its chat one"},
		{post("https://bedrock-runtime.us-east-1.amazonaws.com/model/moonshot.kimi-k2-thinking/converse", `{}`), "", "bedrock-converse-kimi", "",
			"Kimi K2 Thinking on Converse goes to the unsigned-reasoner target"},
		{post("https://bedrock-runtime.us-west-2.amazonaws.com/model/moonshot.kimi-k2-thinking/converse-stream", `{}`), "", "bedrock-converse-kimi",
			"placed at bedrock-converse-kimi: same decision for bedrock-runtime.us-west-2.amazonaws.com",
			"another region: the target whose profile describes the region and whose decision is the same"},
		{post("https://bedrock-runtime.us-west-2.amazonaws.com/model/us.anthropic.claude-opus-4-6-v1%3A0/converse", `{}`), "", "bedrock-converse-claude",
			"placed at bedrock-converse-claude: same decision for bedrock-runtime.us-west-2.amazonaws.com (base URL https://bedrock-runtime.us-west-2.amazonaws.com is not the target's",
			"the issue's us-west-2 Claude: the signed Converse policy, the same as us-east-1's"},
		{post("https://contoso-eastus.openai.azure.com/openai/v1/responses", `{"model":"gpt-5-mini"}`), "", "azure-openai-responses",
			"placed at azure-openai-responses: same decision for contoso-eastus.openai.azure.com",
			"every Azure resource has its own host: the Azure target's profile describes it and decides the same"},
		{post("https://api.together.xyz/v1/chat/completions", `{"model":"Qwen/Qwen3-235B-A22B"}`), "", "",
			"no target of api mode chat on api.together.xyz, and no target's provider profile describes api.together.xyz (target ",
			"a host no profile describes is not placed at another provider's target, even one that decides the same"},
		{post("https://api.x.ai/v1/chat/completions", `{"model":"grok-4"}`), "", "xai",
			"model grok-4 is not the target's (model grok-3-mini, base URL https://api.x.ai/v1); the route decision is the same",
			"the issue's xAI recording: another Grok model at the xai target's host decides the same"},
		{post("https://api.groq.com/openai/v1/chat/completions", `{"model":"deepseek-r1-distill-llama-70b"}`), "", "",
			"nearest target groq", "a same-host target that decides differently is named, not another provider's"},
		{post("https://api.anthropic.com/v1/messages", `{"model":"claude-sonnet-4-5"}`), "anthropic", "anthropic", "placed by --target",
			"--target places it anyway"},
		{post("https://api.anthropic.com/v1/messages", `{"model":"claude-sonnet-4-5"}`), "deepseek", "", "--target deepseek speaks api mode chat, the exchange anthropic",
			"a forced target must read the exchange's dialect"},
		{post("https://api.groq.com/openai/v1/chat/completions", `{"model":"deepseek-r1-distill-llama-70b"}`), "", "",
			"must-echo family deepseek here, none for openai/gpt-oss-120b", "a model substring that joins the must-echo tier changes the decision"},
		{post("https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-3-7-sonnet-20250219-v1%3A0/converse", `{}`), "", "bedrock-converse-claude",
			"model us.anthropic.claude-3-7-sonnet-20250219-v1:0 is not the target's", "the model comes from the Converse path; Claude 3.7 has the signed policy"},
		{post("https://bedrock-runtime.us-east-1.amazonaws.com/model/us.deepseek.r1-v1%3A0/converse", `{}`), "", "bedrock-converse-deepseek", "",
			"DeepSeek-R1 on Converse goes to the stripped DeepSeek target, not the signed Claude one"},
		{post("https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0/converse", `{}`), "", "bedrock-converse-claude-legacy",
			"model anthropic.claude-3-5-sonnet-20241022-v2:0 is not the target's", "a Claude without extended thinking goes to the claude-legacy target"},
		{post("https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", `{"contents":[]}`), "", "gemini",
			"model gemini-2.5-pro is not the target's", "Gemini's native dialect has no per-model route data"},
		{post("https://api.openai.com/v1/responses", `{"model":"gpt-5"}`), "", "openai-responses", "model gpt-5 is not the target's",
			"a Responses exchange goes to the Responses target of its host"},
		{post("https://api.kimi.com/coding/v1/responses", `{"model":"kimi-k2.6"}`), "", "", "no target of api mode responses on api.kimi.com",
			"a host with no target of the exchange's api mode places nothing"},
		{post("https://api.acme.test/v1/complete", `{}`), "", "", "the path /v1/complete speaks no api mode replaycheck knows",
			"an unknown path"},
		{Exchange{Status: 200, Mode: engine.ModeBedrockConverse}, "", "",
			"no target: capture checked against the bedrock-converse dialect only (the fixture recorded no request, and it names no model)",
			"a response-only fixture without a model says nothing of who answered: its dialect only"},
		{Exchange{Status: 200, Mode: engine.ModeGemini, Model: "gemini-3-pro-preview"}, "", "gemini", "its model is the target's",
			"a response-only fixture naming the target's model"},
		{Exchange{Status: 200, Mode: engine.ModeChat, Model: "qwen3-max"}, "", "dashscope",
			"model qwen3-max is of the qwen family, like the target's (model qwen3.6-plus, base URL https://dashscope.aliyuncs.com/compatible-mode/v1)",
			"a qwen3 stream goes to DashScope, not to the local llama.cpp target of a qwen model nor to DeepSeek"},
		{Exchange{Status: 200, Mode: engine.ModeAnthropic, Model: "claude-sonnet-4-5-20250929"}, "", "anthropic",
			"of the claude family, like the target's (model claude-opus-4-6, base URL https://api.anthropic.com), and spelt the same way (a plain id)",
			"a Claude id as Anthropic's own API spells it goes to Anthropic direct, never to Bedrock"},
		{Exchange{Status: 200, Mode: engine.ModeAnthropic, Model: "anthropic.claude-3-7-sonnet-20250219-v1:0"}, "", "bedrock-anthropic",
			"spelt the same way (a bedrock id)", "a Bedrock-spelt Claude id goes to the Bedrock target"},
		{Exchange{Status: 200, Mode: engine.ModeResponses, Model: "gpt-5-mini", Vendor: "azure"}, "", "azure-openai-responses",
			"its answer carries marks only azure writes (content filter verdicts), so azure answered it, whatever its model (gpt-5-mini) says",
			"an answer with Azure's content filters is Azure's, not OpenAI direct's by its model family"},
		{Exchange{Status: 200, Mode: engine.ModeChat, Model: "gpt-5-mini", Vendor: "azure"}, "", "",
			"its answer carries azure's own marks, and no chat target is azure's",
			"no Azure chat target: its dialect only, never OpenAI direct"},
		{Exchange{Status: 200, Mode: engine.ModeChat, Model: "acme-1"}, "", "",
			"no target: capture checked against the chat dialect only (the fixture recorded no request, and no chat target serves a model of the acme family spelt like acme-1)",
			"a model of a family no target serves"},
	}
	for _, tc := range tests {
		p := Place(tc.e, mf, profiles, tc.forced)
		got := p.Note + p.Unplaced
		if tc.target == "" && tc.e.ResponseOnly() {
			if p.Target != "" || !p.DialectOnly() || p.Dialect != tc.e.Mode || !strings.Contains(got, tc.note) {
				t.Errorf("%s: %s: target %q dialect %q note %q; want dialect only with %q", tc.e.Describe(), tc.reason, p.Target, p.Dialect, got, tc.note)
			}
			continue
		}
		if p.Target != tc.target || !strings.Contains(got, tc.note) || (tc.target == "" && p.Unplaced == "") || (tc.target != "" && p.Unplaced != "") {
			t.Errorf("%s: %s: target %q note %q unplaced %q; want target %q with %q", tc.e.Describe(), tc.reason, p.Target, p.Note, p.Unplaced, tc.target, tc.note)
		}
	}
}

// TestRouteOf reads mode, base URL, model and streaming from request
// lines of every dialect.
func TestRouteOf(t *testing.T) {
	tests := []struct {
		url, body string
		want      Route
		reason    string
	}{
		{"https://openrouter.ai/api/v1/chat/completions", `{"model":"m","stream":true}`,
			Route{engine.ModeChat, "https://openrouter.ai/api/v1", "m", true}, "chat: the body names model and stream"},
		{"https://api.anthropic.com/v1/messages?beta=true", `{"model":"claude-x"}`,
			Route{engine.ModeAnthropic, "https://api.anthropic.com", "claude-x", false}, "the query string is not part of the path"},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-opus-4-6-v1%3A0/converse-stream", `{}`,
			Route{engine.ModeBedrockConverse, "https://bedrock-runtime.us-east-1.amazonaws.com", "us.anthropic.claude-opus-4-6-v1:0", true}, "Converse: model from the escaped path"},
		{"https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-v9/invoke", `{}`,
			Route{engine.ModeAnthropic, "https://bedrock-runtime.us-east-1.amazonaws.com", "anthropic.claude-v9", false}, "Bedrock InvokeModel speaks Anthropic"},
		{"https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/l/publishers/anthropic/models/claude-opus-4-6:streamRawPredict", `{}`,
			Route{engine.ModeAnthropic, "https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/l/publishers/anthropic/models", "claude-opus-4-6", true}, "Vertex rawPredict"},
		{"https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:generateContent", `{}`,
			Route{engine.ModeGemini, "https://generativelanguage.googleapis.com/v1beta", "gemini-3-pro-preview", false}, "Gemini generateContent"},
	}
	for _, tc := range tests {
		got, ok := RouteOf(Exchange{Method: "POST", URL: tc.url, RequestBody: []byte(tc.body)})
		if !ok || got != tc.want {
			t.Errorf("%s: %s: got %+v %v, want %+v", tc.url, tc.reason, got, ok, tc.want)
		}
	}
}

// TestDecisionParts shows that the parts name the native dialect policy.
func TestDecisionParts(t *testing.T) {
	mf := loadMatrix(t)
	tgt, _ := mf.Target("bedrock-converse-claude")
	var names []string
	for _, p := range DecisionParts(&mf.Table, tgt.Route) {
		names = append(names, p.Name+"="+p.Value)
	}
	if got := strings.Join(names, " "); !strings.Contains(got, "converse policy=claude replay=signed thinking requested=true") {
		t.Errorf("converse decision parts: %s", got)
	}
}
