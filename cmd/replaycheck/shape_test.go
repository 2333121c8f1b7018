package main

import (
	"os"
	"testing"

	"github.com/tidwall/gjson"
)

const (
	sampleSession    = "testdata/sessions/sample.json"
	responsesSession = "testdata/sessions/responses.json"
)

func TestShapeGolden(t *testing.T) {
	stdin, err := os.ReadFile(sampleSession)
	if err != nil {
		t.Fatal(err)
	}
	base := []string{"shape", "--matrix", testMatrix}
	route := func(p, url, model string, more ...string) []string {
		args := append(append([]string{}, base...), "--provider", p, "--base-url", url, "--model", model)
		return append(args, more...)
	}
	runGolden(t, []goldenCase{
		{reason: "must-echo route: RC only, the legacy empty RC padded with one space", golden: "shape-deepseek.json",
			args: route("deepseek", "https://api.deepseek.com/v1", "deepseek-v4-flash", "--session", sampleSession)},
		{reason: "strict route: no reasoning key at all, not even the pad", golden: "shape-mistral-deepseek-r1.json",
			args: route("mistral", "https://api.mistral.ai/v1", "deepseek-r1", "--session", sampleSession)},
		{reason: "gateway: all three carriers, the private record never on the wire", golden: "shape-openrouter.json",
			args: route("openrouter", "https://openrouter.ai/api/v1", "anthropic/claude-sonnet-4.5", "--session", sampleSession)},
		{reason: "the session's recorded rejection removes RD for this model only", golden: "shape-openrouter-rejected.json",
			args: route("openrouter", "https://openrouter.ai/api/v1", "z-ai/glm-5.3", "--session", sampleSession)},
		{reason: "gemini route unpacks the text-turn and tool-call signatures", golden: "shape-gemini-openai.json",
			args: route("gemini", "https://generativelanguage.googleapis.com/v1beta/openai", "gemini-3-pro-preview", "--session", sampleSession)},
		{reason: "copilot route unpacks reasoning_opaque and the call signature", golden: "shape-copilot.json",
			args: route("copilot", "https://api.githubcopilot.com", "claude-sonnet-4.5", "--session", sampleSession)},
		{reason: "Anthropic Messages: thinking blocks and tool_use from the chat view", golden: "shape-anthropic.json",
			args: route("anthropic", "https://api.anthropic.com", "claude-opus-4-6", "--api-mode", "anthropic", "--session", sampleSession)},
		{reason: "Bedrock Converse: the model in the path, reasoningContent blocks", golden: "shape-converse.json",
			args: route("bedrock", "https://bedrock-runtime.us-east-1.amazonaws.com", "us.anthropic.claude-opus-4-6-v1:0", "--api-mode", "bedrock-converse", "--session", sampleSession)},
		{reason: "Gemini native: contents and parts, signatures back on their parts", golden: "shape-gemini.json",
			args: route("gemini", "https://generativelanguage.googleapis.com/v1beta", "gemini-3-pro-preview", "--api-mode", "gemini", "--session", sampleSession)},
		{reason: "Responses, the issuing route: the reasoning item back before its call, byte for byte", golden: "shape-responses.json",
			args: route("openai", "https://api.openai.com/v1", "gpt-5.1", "--api-mode", "responses", "--session", responsesSession)},
		{reason: "Responses, another family: the turn without its reasoning item, the call without its id", golden: "shape-responses-foreign.json",
			args: route("azure", "https://demo-resource.openai.azure.com/openai/v1", "gpt-5.1", "--api-mode", "responses", "--session", responsesSession)},
		{reason: "Responses from a chat session: no reasoning item is ever made up", golden: "shape-responses-chat-session.json",
			args: route("openai", "https://api.openai.com/v1", "gpt-5.1", "--api-mode", "responses", "--session", sampleSession)},
		{reason: "session from standard input, streaming request, glm flags", golden: "shape-glm-stream.json",
			args: route("zai", "https://api.z.ai/api/paas/v4", "glm-5.3", "--stream"), stdin: string(stdin)},
	})
}

// TestShapeKeepsOpaqueBytes checks that pretty-printing never touches an
// opaque string.
func TestShapeKeepsOpaqueBytes(t *testing.T) {
	r := runMain(t, "", "shape", "--matrix", testMatrix, "--session", sampleSession,
		"--provider", "openrouter", "--base-url", "https://openrouter.ai/api/v1", "--model", "anthropic/claude-sonnet-4.5")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	src, err := os.ReadFile(sampleSession)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		reason string
		src    string
		wire   string
	}{
		{"signed reasoning.text signature", "messages.2.reasoning_details.0.signature", "messages.2.reasoning_details.0.signature"},
		{"encrypted data", "messages.2.reasoning_details.1.data", "messages.2.reasoning_details.1.data"},
	}
	for _, tt := range tests {
		want := gjson.GetBytes(src, tt.src)
		got := gjson.Get(r.stdout, tt.wire)
		if !want.Exists() || got.Raw != want.Raw {
			t.Errorf("%s: wire %s = %s, want %s", tt.reason, tt.wire, got.Raw, want.Raw)
		}
	}
	if gjson.Get(r.stdout, `messages.2.reasoning_details.#(type=="hermes.native_assistant")`).Exists() {
		t.Error("the private record reached the wire")
	}
}
