package main

import (
	"strings"
	"syscall"
	"testing"
)

// TestProbeNativeModes probes a provider of each native api mode, each
// simulated by `serve` on loopback: each is recorded with its own
// dialect's battery and gets its own table section proposed — an
// anthropic.routes class, a native_fields rule, a responses family, a
// bedrock_converse row — never a chat carrier row; and its whole column
// passes under the proposal. An Anthropic base URL ending in /v1 is taken
// without it, so no request goes to /v1/v1/messages.
func TestProbeNativeModes(t *testing.T) {
	tests := []struct {
		profile, mode, path, model string
		want                       []string
		reason                     string
	}{
		{"anthropic", "anthropic", "/v1", "claude-opus-4-6", []string{
			"is taken without its trailing /v1",
			`base_url: "` + "{URL}" + `", model: "claude-opus-4-6"`,
			"signed replay: accepted (shown by carriers battery, the replayed tool loop with its signed thinking (replay: signed): 200",
			"foreign thinking.signature: refused (shown by signed-roundtrip battery",
			"anthropic.routes: insert first\n  - {id: acme, replay: signed, prior_thinking: capability, learn_rejections: true, hosts: [\"127.0.0.1\"]}",
		}, "an Anthropic-signed provider gets a route class that replays signed and learns refused signatures"},
		{"gemini", "gemini", "/v1beta", "gemini-3-pro-preview", []string{
			"missing thoughtSignature: refused (shown by signed-roundtrip battery",
			"native_fields",
		}, "a Gemini provider is judged on its own dialect and its native_fields"},
		{"openai-responses", "responses", "/v1", "gpt-5.1", []string{
			"reasoning items replayed to their issuer: accepted",
			"responses.families: append\n  - {id: acme, hosts: [\"127.0.0.1\"]}",
		}, "a Responses provider gets a family of its own"},
		{"bedrock-converse", "bedrock-converse", "", "acme.reasoner-v1:0", []string{
			"thinking request: needed",
			"bedrock_converse.models: insert first\n  - {id: acme, models: [\"acme.reasoner-v1:0\"], replay: signed, request_thinking: true}",
		}, "a Converse model gets a row of its own"},
	}
	for _, tt := range tests {
		srv := startServe(t, tt.profile)
		r := runBinary(t, testEnv(t), "probe", "--provider", "acme", "--api-mode", tt.mode, "--base-url", srv.url+tt.path, "--model", tt.model,
			"--no-key", "--max-requests", "1000", "--out", t.TempDir(), "--matrix", repoMatrix)
		if code := srv.stop(t, syscall.SIGTERM); code != 0 {
			t.Errorf("%s: serve exit %d", tt.profile, code)
		}
		if r.code != 0 {
			t.Errorf("%s: probe exit %d: %s\n%s\n%s", tt.profile, r.code, tt.reason, r.stdout, r.stderr)
			continue
		}
		if strings.Contains(r.stdout, "carrier_routes") {
			t.Errorf("%s: a chat carrier row proposed for the %s api mode: %s\n%s", tt.profile, tt.mode, tt.reason, r.stdout)
		}
		for _, want := range tt.want {
			want = strings.ReplaceAll(want, "{URL}", srv.url)
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%s: probe output lacks %q: %s\n%s", tt.profile, want, tt.reason, r.stdout)
			}
		}
		if !strings.Contains(r.stdout, " 0 fail, 0 unverified, ") {
			t.Errorf("%s: the column does not pass under the proposal:\n%s", tt.profile, r.stdout)
		}
		if strings.Contains(srv.stderr.String(), "/v1/v1/") {
			t.Errorf("%s: a request went to /v1/v1/:\n%s", tt.profile, srv.stderr)
		}
	}
}
