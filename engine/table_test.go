package engine_test

import (
	"github.com/replaycheck/replaycheck/engine/internal/enginetest"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

func TestHostMatching(t *testing.T) {
	tests := []struct {
		baseURL, domain string
		want            bool
		reason          string
	}{
		{"https://api.moonshot.ai/v1", "moonshot.ai", true, "subdomain matches"},
		{"https://moonshot.ai/v1", "moonshot.ai", true, "exact host matches"},
		{"https://evil.com/moonshot.ai/v1", "moonshot.ai", false, "a path never matches"},
		{"https://moonshot.ai.evil/v1", "moonshot.ai", false, "a look-alike suffix never matches"},
		{"https://notmoonshot.ai/v1", "moonshot.ai", false, "a label must end at a dot"},
		{"https://API.MOONSHOT.AI./v1", "moonshot.ai", true, "case and trailing dot are normalised"},
		{"api.deepseek.com", "api.deepseek.com", true, "a bare host without scheme is accepted"},
		{"api.deepseek.com:8443/v1", "api.deepseek.com", true, "a bare host with port and path"},
		{"https://bedrock-runtime.us-east-1.amazonaws.com.evil.test", "amazonaws.com", false, "look-alike Bedrock host"},
		{"https://evil.test/bedrock-runtime.us-east-1.amazonaws.com", "amazonaws.com", false, "Bedrock host in a path"},
		{"", "moonshot.ai", false, "empty base URL never matches"},
		{"https://moonshot.ai", "", false, "empty domain never matches"},
		{"https://user:pw@api.kimi.com@evil.example/v1", "api.kimi.com", false, "userinfo tricks never match"},
	}
	for _, tt := range tests {
		if got := engine.HostMatches(engine.Hostname(tt.baseURL), tt.domain); got != tt.want {
			t.Errorf("HostMatches(%q, %q) = %v, want %v: %s", tt.baseURL, tt.domain, got, tt.want, tt.reason)
		}
	}
}

func TestDecideCarrierRoutes(t *testing.T) {
	const (
		RC = "reasoning_content"
		R  = "reasoning_content,reasoning"
	)
	tests := []struct {
		provider, baseURL, model string
		row                      string
		carriers                 string
		pad                      bool
		reason                   string
	}{
		// SPEC §2.3 rows, each by provider id and by host
		{"mistral", "https://api.mistral.ai/v1", "deepseek-r1", "strict", "none", false, "strict wins over the DeepSeek model family: no key, not even the pad"},
		{"custom", "https://api.groq.com/openai/v1", "m", "strict", "none", false, "strict by host before the custom local-family row"},
		{"custom", "https://api.cerebras.ai/v1", "m", "strict", "none", false, "strict by host"},
		{"sambanova", "https://example.com/v1", "m", "strict", "none", false, "strict by provider id"},
		{"x", "https://api.hunyuan.cloud.tencent.com/v1", "m", "strict", "none", false, "Hunyuan is strict by host"},
		{"fireworks", "https://api.fireworks.ai/inference/v1", "m", "fireworks", "reasoning_content", false, "Fireworks reads RC only"},
		{"x", "https://api.fireworks.ai/inference/v1", "m", "fireworks", "reasoning_content", false, "Fireworks by host"},
		{"nous", "https://inference-api.nousresearch.com/v1", "z-ai/glm-5.3", "gateways", "reasoning_content,reasoning,reasoning_details", false, "the Nous Portal gets all three"},
		{"kilocode", "https://api.kilo.ai/api/gateway", "m", "gateways", "reasoning_content,reasoning,reasoning_details", false, "Kilo gateway"},
		{"x", "https://ai-gateway.vercel.sh/v1", "m", "gateways", "reasoning_content,reasoning,reasoning_details", false, "Vercel AI Gateway by host"},
		{"openrouter", "https://openrouter.ai/api/v1", "moonshotai/kimi-k3", "gateways", "reasoning_content,reasoning,reasoning_details", false, "aggregated Kimi is not padded (no kimi model substring)"},
		{"openrouter", "https://openrouter.ai/api/v1", "deepseek/deepseek-v3", "gateways", "reasoning_content,reasoning,reasoning_details", true, "aggregated DeepSeek is padded by model substring"},
		{"novita", "https://api.novita.ai/openai/v1", "m", "details-vendors", "reasoning_content,reasoning_details", false, "Novita reads RC and RD"},
		{"x", "https://tokenhub-intl.tencentcloudmaas.com/v1", "m", "details-vendors", "reasoning_content,reasoning_details", false, "TokenHub international host"},
		{"minimax-cn", "https://api.minimaxi.com/v1", "m", "details-vendors", "reasoning_content,reasoning_details", false, "MiniMax China"},
		{"ollama-cloud", "https://ollama.com/v1", "m", "local-family", R, false, "Ollama Cloud reads RC and R"},
		{"custom", "http://127.0.0.1:8080/v1", "m", "local-family", R, false, "custom is decided by the local-family row"},
		{"custom", "https://my-gateway.example/v1", "m", "local-family", R, false, "custom with a remote host still gets RC+R"},
		{"llama", "http://localhost:8080/v1", "m", "default-local", R, false, "localhost is a local endpoint"},
		{"vllm", "http://10.1.2.3:8000/v1", "m", "default-local", R, false, "a private address is local"},
		{"vllm", "http://[fe80::1]:8000/v1", "m", "default-local", R, false, "a link-local address is local"},
		{"x", "http://gpu-box.local:1234/v1", "m", "default-local", R, false, "*.local is local"},
		{"x", "http://vllm.svc.internal/v1", "m", "default-local", R, false, "*.internal is local"},
		{"x", "http://vllm:8000/v1", "m", "default-local", R, false, "a dotless hostname (a docker-compose service) is local"},
		{"x", "http://100.101.102.103:11434/v1", "m", "default-local", R, false, "the Tailscale CGNAT range 100.64.0.0/10 is local"},
		{"x", "http://[::ffff:100.64.0.1]:8000/v1", "m", "default-local", R, false, "an IPv4-mapped Tailscale address is local"},
		{"x", "http://100.128.0.1:8000/v1", "m", "default", RC, false, "just past 100.127.255.255 is a public address"},
		{"x", "http://[2001:db8::1]:8000/v1", "m", "default", RC, false, "a dotless IPv6 address is an address, not a name"},
		{"zai", "https://api.z.ai/api/paas/v4", "glm-5.3", "default", RC, false, "GLM takes the default"},
		{"openai-api", "https://api.openai.com/v1", "gpt-5", "default", RC, false, "OpenAI takes the default"},
		{"deepseek", "https://api.deepseek.com/v1", "deepseek-v4-flash", "default", RC, true, "DeepSeek direct: default carriers plus the pad"},
		{"kimi-coding", "https://api.kimi.com/coding/v1", "kimi-k2.6", "default", RC, true, "Kimi direct is padded"},
		{"xiaomi", "https://api.xiaomimimo.com/v1", "mimo-v2.5-pro", "default", RC, true, "MiMo direct is padded"},
		{"x", "https://evil.com/api.deepseek.com/v1", "m", "default", RC, false, "a DeepSeek host in a path is not must-echo"},
	}
	table := enginetest.Table(t)
	for _, tt := range tests {
		d := table.Decide(engine.Route{APIMode: engine.ModeChat, Provider: tt.provider, BaseURL: tt.baseURL, Model: tt.model}, 0)
		if d.Row != tt.row || d.Carriers.String() != tt.carriers || d.Pad != tt.pad {
			t.Errorf("%s %s %s: got row %s carriers %s pad %v, want row %s carriers %s pad %v: %s",
				tt.provider, tt.baseURL, tt.model, d.Row, d.Carriers, d.Pad, tt.row, tt.carriers, tt.pad, tt.reason)
		}
	}
}

func TestEchoFamilies(t *testing.T) {
	tests := []struct {
		provider, baseURL, model string
		want                     string
		reason                   string
	}{
		{"kimi-coding", "https://example.com", "any", "kimi", "raw provider id"},
		{"kimi-coding-cn", "", "any", "kimi", "raw provider id, China"},
		{"KIMI-CODING", "", "any", "", "raw ids are case-sensitive"},
		{"moonshot", "https://llm-proxy.example.com/kimi/v1", "kimi-k2.6", "kimi", "LiteLLM's and OpenClaw's Moonshot provider id, through a proxy"},
		{"Kimi", "https://llm-proxy.example.com/kimi/v1", "kimi-k2.6", "kimi", "OpenClaw's Kimi Coding provider id, lower-cased"},
		{"moonshotai", "https://openrouter.ai/api/v1", "moonshotai/kimi-k3", "", "a provider id is matched whole, never as a substring"},
		{"custom", "https://api.kimi.com/coding", "m", "kimi", "Kimi host"},
		{"custom", "https://api.moonshot.ai/v1", "m", "kimi", "Moonshot host"},
		{"custom", "https://api.moonshot.cn/v1", "m", "kimi", "Moonshot China host"},
		{"openrouter", "https://openrouter.ai/api/v1", "moonshotai/kimi-k3", "", "Kimi has no model substring"},
		{"deepseek", "", "m", "deepseek", "provider id"},
		{"DeepSeek", "", "m", "deepseek", "provider ids are lower-cased"},
		{"openrouter", "https://openrouter.ai/api/v1", "deepseek/deepseek-v3", "deepseek", "model substring"},
		{"custom", "https://api.deepseek.com", "m", "deepseek", "DeepSeek host"},
		{"xiaomi", "", "m", "mimo", "MiMo provider"},
		{"custom", "", "MiMo-7B", "mimo", "MiMo model substring, lower-cased"},
		{"custom", "https://api.xiaomimimo.com/v1", "m", "mimo", "MiMo host"},
		{"custom", "https://token-plan-sgp.xiaomimimo.com/v1", "m", "mimo", "MiMo token-plan subdomain"},
		{"custom", "https://api.kimi.com/coding", "deepseek-chat", "kimi", "both match: first family in table order wins"},
		{"openai", "https://api.openai.com/v1", "gpt-5", "", "not must-echo"},
		{"mistral", "", "mistral-large", "", "not must-echo"},
		{"", "", "", "", "empty route"},
	}
	table := enginetest.Table(t)
	for _, tt := range tests {
		got := table.EchoFamily(engine.Route{Provider: tt.provider, BaseURL: tt.baseURL, Model: tt.model})
		if got != tt.want {
			t.Errorf("EchoFamily(%q, %q, %q) = %q, want %q: %s", tt.provider, tt.baseURL, tt.model, got, tt.want, tt.reason)
		}
	}
}

func TestDecideRejectionsAndOptIn(t *testing.T) {
	table := enginetest.Table(t)
	rc := engine.NewCarrierSet(engine.ReasoningContent)
	rd := engine.NewCarrierSet(engine.ReasoningDetails)
	tests := []struct {
		route    engine.Route
		rejected engine.CarrierSet
		carriers string
		pad      bool
		reason   string
	}{
		{engine.Route{Provider: "nous", BaseURL: "https://inference-api.nousresearch.com/v1", Model: "z-ai/glm-5.3-flash:US"}, engine.NewCarrierSet(engine.Reasoning, engine.ReasoningDetails), "reasoning_content", false, "recorded refusals are subtracted"},
		{engine.Route{Provider: "deepseek", BaseURL: "https://api.deepseek.com", Model: "deepseek-v4"}, rc, "none", false, "a route that refused RC is never padded"},
		{engine.Route{Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "m"}, rd, "reasoning_content,reasoning", false, "RD refusal keeps RC and R"},
		{engine.Route{Provider: "custom", BaseURL: "https://gw.example/v1", Model: "m", EchoOptIn: true}, 0, "reasoning_content,reasoning", true, "opt-in pads any route that reads RC"},
		{engine.Route{Provider: "mistral", BaseURL: "https://api.mistral.ai/v1", Model: "m", EchoOptIn: true}, 0, "none", false, "opt-in never pads a strict route"},
		{engine.Route{Provider: "custom", BaseURL: "https://gw.example/v1", Model: "m"}, 0, "reasoning_content,reasoning", false, "no opt-in, no family: no pad"},
	}
	for _, tt := range tests {
		d := table.Decide(tt.route, tt.rejected)
		if d.Carriers.String() != tt.carriers || d.Pad != tt.pad {
			t.Errorf("%+v rejected %s: got %s pad %v, want %s pad %v: %s", tt.route, tt.rejected, d.Carriers, d.Pad, tt.carriers, tt.pad, tt.reason)
		}
	}
}

func TestDecideFlagsAndNativeFields(t *testing.T) {
	table := enginetest.Table(t)
	tests := []struct {
		route  engine.Route
		flags  []string
		native []string
		reason string
	}{
		{engine.Route{Provider: "zai", BaseURL: "https://api.z.ai/api/paas/v4", Model: "glm-5.3"}, []string{"glm-preserved-thinking"}, nil, "GLM keeps thinking"},
		{engine.Route{Provider: "dashscope", BaseURL: "https://dashscope.aliyuncs.com/compatible-mode/v1", Model: "qwen3.6-plus"}, []string{"dashscope-preserve-thinking"}, nil, "Qwen preserve_thinking"},
		{engine.Route{Provider: "dashscope", BaseURL: "https://dashscope.aliyuncs.com/compatible-mode/v1", Model: "qwen-max"}, nil, nil, "preserve_thinking only for the models it applies to"},
		{engine.Route{Provider: "kimi-coding", BaseURL: "https://api.kimi.com/coding/v1", Model: "kimi-k2.6"}, []string{"kimi-keep-all"}, nil, "Kimi K2.6 keeps all"},
		{engine.Route{Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "moonshotai/kimi-k2.6"}, nil, nil, "the Kimi flag is for Kimi's own endpoints"},
		{engine.Route{Provider: "gemini", BaseURL: "https://generativelanguage.googleapis.com/v1beta/openai", Model: "my-alias"}, nil, []string{"gemini"}, "the Gemini route reads its fields even under an alias model"},
		{engine.Route{Provider: "openrouter", BaseURL: "https://openrouter.ai/api/v1", Model: "google/gemini-3-pro"}, nil, []string{"gemini"}, "Gemini models read the Gemini fields"},
		{engine.Route{Provider: "copilot", BaseURL: "https://api.githubcopilot.com", Model: "gemini-3-pro"}, nil, []string{"copilot", "gemini"}, "Copilot with a Gemini model reads both, sorted"},
		{engine.Route{Provider: "fireworks", BaseURL: "https://api.fireworks.ai/inference/v1", Model: "claude"}, nil, nil, "no native fields elsewhere"},
		{engine.Route{Provider: "custom", BaseURL: "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/endpoints/openapi", Model: "projects/p/endpoints/1234"},
			nil, []string{"gemini"}, "Gemini on Vertex by its regional host, though the tuned model's id says nothing of Gemini"},
		{engine.Route{Provider: "vertex", BaseURL: "https://aiplatform.googleapis.com/v1/projects/p/locations/global/endpoints/openapi", Model: "tuned-1"}, nil, []string{"gemini"},
			"Gemini on Vertex's global host"},
		{engine.Route{Provider: "vertex", BaseURL: "https://vertex-proxy.example/v1/projects/p/locations/global/endpoints/openapi", Model: "tuned-1"}, nil, []string{"gemini"},
			"the Vertex provider id behind a proxy host"},
		{engine.Route{Provider: "custom", BaseURL: "https://us-central1-aiplatform.googleapis.com/v1beta1/projects/p/locations/us-central1/endpoints/1234567890", Model: "1234567890"},
			nil, []string{"gemini"}, "a tuned Gemini model at its own endpoint, called with the endpoint's id as the model (ctrl-space-labs/gendox-core#450)"},
		{engine.Route{Provider: "vertex", APIMode: engine.ModeAnthropic, BaseURL: "https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models", Model: "claude-opus-4-6"},
			nil, nil, "Claude on Vertex reads no Gemini fields"},
		{engine.Route{Provider: "custom", BaseURL: "https://evil.example/us-central1-aiplatform.googleapis.com/endpoints/openapi", Model: "m"}, nil, nil,
			"a Vertex host written into a path is no Vertex host"},
	}
	for _, tt := range tests {
		d := table.Decide(tt.route, 0)
		if !equalStrings(d.FlagIDs, tt.flags) || !equalStrings(d.NativeFields, tt.native) {
			t.Errorf("%+v: flags %v native %v, want %v %v: %s", tt.route, d.FlagIDs, d.NativeFields, tt.flags, tt.native, tt.reason)
		}
	}
}

func TestDecideIsDeterministic(t *testing.T) {
	table := enginetest.Table(t)
	r := engine.Route{Provider: "zai", BaseURL: "https://api.z.ai/api/paas/v4", Model: "glm-5.3"}
	a, b := table.Decide(r, 0), table.Decide(r, 0)
	if a.Row != b.Row || a.Carriers != b.Carriers || len(a.Flags) != len(b.Flags) || string(a.Flags[1].Value) != string(b.Flags[1].Value) {
		t.Fatalf("two decisions differ: %+v vs %+v", a, b)
	}
}

func TestDecideNativeModes(t *testing.T) {
	table := enginetest.Table(t)
	d := table.Decide(engine.Route{APIMode: engine.ModeAnthropic, Provider: "deepseek", BaseURL: "https://api.deepseek.com/anthropic", Model: "deepseek-v4-pro"}, 0)
	if !d.Native || d.Row != "native" || !d.Carriers.Empty() || !d.Pad {
		t.Fatalf("Anthropic-compatible DeepSeek: got %+v, want native, no standard carriers, pad kept for the must-echo endpoint", d)
	}
	prior := []struct {
		route  engine.Route
		want   bool
		reason string
	}{
		{engine.Route{APIMode: engine.ModeAnthropic, Provider: "anthropic", BaseURL: "https://api.anthropic.com", Model: "claude-opus-4-6"}, true, "opus 4.6 keeps earlier turns' thinking"},
		{engine.Route{APIMode: engine.ModeAnthropic, Provider: "bedrock", BaseURL: "https://bedrock-runtime.us-east-1.amazonaws.com", Model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0"}, false, "sonnet 4.5 keeps only the last turn"},
		{engine.Route{APIMode: engine.ModeAnthropic, Provider: "relay", BaseURL: "https://relay.example/v1", Model: "claude-opus-4-6"}, false, "an unknown relay gets no thinking"},
		{engine.Route{APIMode: engine.ModeBedrockConverse, Provider: "bedrock", BaseURL: "https://bedrock-runtime.us-east-1.amazonaws.com", Model: "us.anthropic.claude-opus-4-6-v1:0"}, true, "Converse replays Claude reasoning signed"},
		{engine.Route{APIMode: engine.ModeGemini, Provider: "gemini", BaseURL: "https://generativelanguage.googleapis.com/v1beta", Model: "gemini-3-pro-preview"}, false, "Gemini replays signatures, never readable thoughts"},
	}
	for _, tt := range prior {
		d := table.Decide(tt.route, 0)
		if d.PriorThinking != tt.want || engine.StaleThinkingReachesWire(d) != tt.want {
			t.Errorf("%s %s: prior thinking %v, want %v: %s", tt.route.APIMode, tt.route.Model, d.PriorThinking, tt.want, tt.reason)
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
