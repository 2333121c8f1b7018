package agent

import (
	"strings"
	"testing"
)

// TestEnvironmentKeepsAnAnthropicTargetsPath holds ANTHROPIC_BASE_URL to
// the base URL an Anthropic SDK is given for the target: the target's
// path kept (DeepSeek documents https://api.deepseek.com/anthropic, Kimi
// https://api.kimi.com/coding), only a trailing /v1 dropped, since the
// SDK appends /v1/messages itself.
func TestEnvironmentKeepsAnAnthropicTargetsPath(t *testing.T) {
	for _, c := range []struct{ url, mode, want string }{
		{"http://127.0.0.1:9/anthropic", "anthropic", "http://127.0.0.1:9/anthropic"},
		{"https://api.deepseek.com/anthropic", "anthropic", "https://api.deepseek.com/anthropic"},
		{"https://api.kimi.com/coding/", "anthropic", "https://api.kimi.com/coding"},
		{"https://api.anthropic.com", "anthropic", "https://api.anthropic.com"},
		{"http://127.0.0.1:9/v1", "chat", "http://127.0.0.1:9"},
		{"https://openrouter.ai/api/v1", "chat", "https://openrouter.ai/api"},
	} {
		env := Environment(nil, "/tmp/h", Base{URL: c.url, Model: "m", APIMode: c.mode}, nil)
		got := ""
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, "ANTHROPIC_BASE_URL="); ok {
				got = v
			}
		}
		if got != c.want {
			t.Errorf("%s (%s): ANTHROPIC_BASE_URL = %q, want %q", c.url, c.mode, got, c.want)
		}
	}
}
