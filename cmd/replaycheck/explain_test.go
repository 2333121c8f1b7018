package main

import (
	"encoding/json"
	"github.com/tidwall/gjson"
	"slices"
	"strings"
	"testing"
)

// explainRoutes are representative routes for the explain goldens.
var explainRoutes = []struct {
	reason string
	name   string
	args   []string
}{
	{"must-echo family by provider: pad on", "deepseek",
		[]string{"--provider", "deepseek", "--base-url", "https://api.deepseek.com/v1", "--model", "deepseek-v4-flash"}},
	{"strict row beats the deepseek model substring: no carrier, no pad", "mistral-deepseek-r1",
		[]string{"--provider", "mistral", "--base-url", "https://api.mistral.ai/v1", "--model", "deepseek-r1"}},
	{"no row, local endpoint: RC and R", "local",
		[]string{"--provider", "llama-cpp", "--base-url", "http://localhost:8080/v1", "--model", "qwen3.6-35b"}},
	{"look-alike host matches neither the kimi family nor its flag", "lookalike",
		[]string{"--provider", "relay", "--base-url", "https://moonshot.ai.evil/v1", "--model", "kimi-k2.6"}},
	{"glm keep-thinking flag", "glm",
		[]string{"--provider", "zai", "--base-url", "https://api.z.ai/api/paas/v4", "--model", "glm-5.3"}},
	{"copilot reads its private native fields", "copilot",
		[]string{"--provider", "copilot", "--base-url", "https://api.githubcopilot.com", "--model", "claude-sonnet-4.5"}},
	{"recorded rejections leave RC on a gateway", "rejected",
		[]string{"--provider", "openrouter", "--base-url", "https://openrouter.ai/api/v1", "--model", "anthropic/claude-sonnet-4.5", "--rejected", "reasoning,reasoning_details"}},
	{"echo opt-in pads an unknown vendor", "opt-in",
		[]string{"--provider", "acme", "--base-url", "api.acme.example", "--model", "acme-think-1", "--echo-opt-in"}},
	{"a native api mode replays through its dialect", "anthropic",
		[]string{"--provider", "anthropic", "--base-url", "https://api.anthropic.com", "--model", "claude-opus-4-6", "--api-mode", "anthropic"}},
	{"a Responses route names the family its reasoning items stay in", "responses-azure",
		[]string{"--provider", "azure", "--base-url", "https://demo-resource.openai.azure.com/openai/v1", "--model", "gpt-5.1", "--api-mode", "responses"}},
	{"an Anthropic model that drops earlier turns' thinking says why", "anthropic-sonnet-4-5",
		[]string{"--provider", "anthropic", "--base-url", "https://api.anthropic.com", "--model", "claude-sonnet-4-5", "--api-mode", "anthropic"}},
	{"an unknown Anthropic-compatible relay gets no thinking", "anthropic-relay",
		[]string{"--provider", "relay", "--base-url", "https://relay.example/v1", "--model", "claude-opus-4-6", "--api-mode", "anthropic"}},
	{"a Converse route prints its model's policy", "converse-deepseek-r1",
		[]string{"--provider", "bedrock", "--base-url", "https://bedrock-runtime.us-east-1.amazonaws.com", "--model", "us.deepseek.r1-v1:0", "--api-mode", "bedrock-converse"}},
}

func TestExplainGolden(t *testing.T) {
	var tests []goldenCase
	for _, r := range explainRoutes {
		args := append([]string{"explain", "--matrix", testMatrix}, r.args...)
		tests = append(tests,
			goldenCase{reason: r.reason, golden: "explain-" + r.name + ".txt", args: args},
			goldenCase{reason: r.reason, golden: "explain-" + r.name + ".json", args: append(slices.Clone(args), "--json")})
	}
	runGolden(t, tests)
}

// TestExplainJSONContract pins the keys and types scripts rely on.
func TestExplainJSONContract(t *testing.T) {
	wantKeys := []string{"api_mode", "carriers", "echo_family", "flags", "host", "model", "native_fields", "pad", "provider", "row"}
	tests := []struct {
		reason     string
		args       []string
		row        string
		echo       any
		pad        bool
		carriers   []any
		flagsEmpty bool
		native     []any
		dialect    string // the native dialect's key, if any
	}{
		{"deepseek pads", explainRoutes[0].args, "default", "deepseek", true, []any{"reasoning_content"}, true, []any{}, ""},
		{"strict sends nothing", explainRoutes[1].args, "strict", "deepseek", false, []any{}, true, []any{}, ""},
		{"look-alike is the default route", explainRoutes[3].args, "default", nil, false, []any{"reasoning_content"}, true, []any{}, ""},
		{"glm sets flags", explainRoutes[4].args, "default", nil, false, []any{"reasoning_content"}, false, []any{}, ""},
		{"copilot reads copilot fields", explainRoutes[5].args, "default", nil, false, []any{"reasoning_content"}, true, []any{"copilot"}, ""},
		{"native mode", explainRoutes[8].args, "native", nil, false, []any{}, true, []any{}, "anthropic"},
		{"responses", explainRoutes[9].args, "native", nil, false, []any{}, true, []any{}, "responses"},
		{"converse", explainRoutes[12].args, "native", "deepseek", true, []any{}, true, []any{}, "converse"},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			r := runMain(t, "", append([]string{"explain", "--matrix", testMatrix, "--json"}, tt.args...)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var got map[string]any
			if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
				t.Fatal(err)
			}
			var keys []string
			for k := range got {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			want := slices.Clone(wantKeys)
			if tt.dialect != "" {
				want = append(want, tt.dialect)
				slices.Sort(want)
			}
			if !slices.Equal(keys, want) {
				t.Fatalf("keys %v, want exactly %v", keys, want)
			}
			flags, _ := got["flags"].(map[string]any)
			switch {
			case got["row"] != tt.row:
				t.Errorf("row = %v, want %v", got["row"], tt.row)
			case got["echo_family"] != tt.echo:
				t.Errorf("echo_family = %v, want %v", got["echo_family"], tt.echo)
			case got["pad"] != tt.pad:
				t.Errorf("pad = %v, want %v", got["pad"], tt.pad)
			case !slices.Equal(got["carriers"].([]any), tt.carriers):
				t.Errorf("carriers = %v, want %v", got["carriers"], tt.carriers)
			case flags == nil || (len(flags) == 0) != tt.flagsEmpty:
				t.Errorf("flags = %v, want empty=%v", got["flags"], tt.flagsEmpty)
			case !slices.Equal(got["native_fields"].([]any), tt.native):
				t.Errorf("native_fields = %v, want %v", got["native_fields"], tt.native)
			}
		})
	}
}

// TestExplainShowsTheThinkingRequest: explain shows the thinking object
// shape sends, adaptive for a Claude model that refuses a budget, on the
// Messages API and on Converse.
func TestExplainShowsTheThinkingRequest(t *testing.T) {
	const session = "../../examples/session/session.json"
	for _, tc := range []struct {
		mode, baseURL, model, dialect, path, want string
	}{
		{"anthropic", "https://api.anthropic.com", "claude-opus-4-7", "anthropic", "thinking", `{"type":"adaptive","display":"summarized"}`},
		{"anthropic", "https://api.anthropic.com", "claude-sonnet-4-5", "anthropic", "thinking", `{"type":"enabled","budget_tokens":8000}`},
		{"bedrock-converse", "https://bedrock-runtime.us-east-1.amazonaws.com", "anthropic.claude-opus-4-7", "converse", "additionalModelRequestFields.thinking", `{"type":"adaptive","display":"summarized"}`},
	} {
		route := []string{"--matrix", repoMatrix, "--api-mode", tc.mode, "--provider", "p", "--base-url", tc.baseURL, "--model", tc.model}
		ex := runMain(t, "", append([]string{"explain", "--json", "--compact"}, route...)...)
		sh := runMain(t, "", append([]string{"shape", "--compact", "--session", session}, route...)...)
		if ex.code != exitOK || sh.code != exitOK {
			t.Fatalf("%s: explain exit %d, shape exit %d: %s%s", tc.model, ex.code, sh.code, ex.stderr, sh.stderr)
		}
		shown := gjson.Get(ex.stdout, tc.dialect+".thinking").Raw
		sent := gjson.Get(sh.stdout, tc.path).Raw
		if shown != tc.want || sent != tc.want {
			t.Errorf("%s: explain shows %s, shape sends %s, want %s", tc.model, shown, sent, tc.want)
		}
		if text := runMain(t, "", append([]string{"explain"}, route...)...); !strings.Contains(text.stdout, "thinking") || !strings.Contains(text.stdout, tc.want) {
			t.Errorf("%s: the text form does not show %s:\n%s", tc.model, tc.want, text.stdout)
		}
	}
}
