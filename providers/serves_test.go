package providers

import (
	"strconv"
	"strings"
	"testing"
)

// TestServesDeclaration: a profile may declare which model ids its hosts
// serve, with lower-case substrings, a source, a note and a confidence
// that is not unconfirmed; a bad declaration is named with its line. A
// profile that declares nothing serves every model.
func TestServesDeclaration(t *testing.T) {
	const decl = "serves:\n  models: [acme]\n  source: https://example.com/models\n  confidence: confirmed\n  note: the models page lists acme-1 and acme-2\n"
	line := strings.Count(baseProfile, "\n") + 1
	tests := []struct {
		reason, text, want string
	}{
		{"a declaration", baseProfile + decl, ""},
		{"no model", baseProfile + strings.Replace(decl, "[acme]", "[]", 1), "serves: models or ids needs at least one model id (substring)"},
		{"a closed list", baseProfile + strings.Replace(decl, "models: [acme]", "ids: [acme-2, acme-1]", 1), ""},
		{"an upper-case listed id", baseProfile + strings.Replace(decl, "models: [acme]", "ids: [Acme-2]", 1), `:` + strconv.Itoa(line+1) + `: serves: id "Acme-2" is not a lower-case model id`},
		{"an id listed twice", baseProfile + strings.Replace(decl, "models: [acme]", "ids: [acme-2, acme-2]", 1), `serves: id "acme-2" is listed twice`},
		{"an upper-case id", baseProfile + strings.Replace(decl, "[acme]", "[Acme]", 1), `:` + strconv.Itoa(line+1) + `: serves: model "Acme" is not a lower-case id substring`},
		{"no source", baseProfile + strings.Replace(decl, "  source: https://example.com/models\n", "", 1), "serves: source is required"},
		{"no note", baseProfile + strings.Replace(decl, "  note: the models page lists acme-1 and acme-2\n", "", 1), "serves: note is required"},
		{"unconfirmed", baseProfile + strings.Replace(decl, "confirmed", "unconfirmed", 1), `:` + strconv.Itoa(line+3) + `: serves: confidence unconfirmed would prune routes on an assumption`},
		{"no confidence", baseProfile + strings.Replace(decl, "  confidence: confirmed\n", "", 1), "serves: confidence is required"},
		{"an unknown key", baseProfile + decl + "  regions: [eu]\n", "regions"},
	}
	for _, tc := range tests {
		p, err := Parse(negFile, []byte(tc.text))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.reason, err)
		case tc.want == "" && !(p.ServesModel("ACME-2") && !p.ServesModel("deepseek-v4-flash")):
			t.Errorf("%s: acme-2 is served, deepseek-v4-flash is not: got %v, %v", tc.reason, p.ServesModel("ACME-2"), p.ServesModel("deepseek-v4-flash"))
		case tc.want == "" && p.Serves.IDs != nil && p.ServesModel("acme-3"):
			t.Errorf("%s: acme-3 is no listed id, but the closed list serves it", tc.reason)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one containing %q", tc.reason, err, tc.want)
		}
	}
	p, err := Parse(negFile, []byte(baseProfile))
	if err != nil {
		t.Fatal(err)
	}
	if !p.ServesModel("deepseek-v4-flash") {
		t.Error("a profile that declares nothing answered that its hosts do not serve deepseek-v4-flash")
	}
}

// TestCommittedServesDeclarations: the committed declarations serve the
// models of the profiles' own public ids and refuse the ones the survivors
// named (providers/README.md, "Served models").
func TestCommittedServesDeclarations(t *testing.T) {
	ps, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	by := ByName(ps)
	for _, tc := range []struct {
		profile string
		served  []string
		not     []string
	}{
		{"deepseek", []string{"deepseek-v4-flash", "deepseek-v4-pro", "deepseek-chat", "deepseek-reasoner"}, []string{"kimi-k2.6", "gemma"}},
		{"anthropic", []string{"claude-opus-4-6", "claude-sonnet-4-5-20250929", "claude-3-7-sonnet-20250219", "claude-haiku-5-5", "claude-fable-5-2", "claude-mythos-preview"},
			[]string{"deepseek", "kimi-k2.6", "claude-opus-4-4", "claude-haiku-5-4", "claude-fable-4-9", "claude-mythos-4-9", "claude-sonnet-4-9"}},
		{"minimax-anthropic", []string{"MiniMax-M2.7", "MiniMax-M2.5-highspeed"}, []string{"claude-opus-4-6"}},
		{"gemini-openai", []string{"gemini-3-pro-preview", "gemma-3-27b-it", "models/gemini-2.5-flash"}, []string{"deepseek-v4-flash"}},
		{"bedrock-converse", []string{"moonshot.kimi-k2-thinking", "moonshotai.kimi-k2.5", "us.anthropic.claude-opus-4-6-v1:0", "us.deepseek.r1-v1:0",
			"arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3"}, []string{"kimi-k2.6", "moonshot", "kimi"}},
	} {
		p := by[tc.profile]
		if p == nil || p.Serves == nil {
			t.Errorf("%s: no serves declaration", tc.profile)
			continue
		}
		for _, m := range tc.served {
			if !p.ServesModel(m) {
				t.Errorf("%s: %s is a published id, but the declaration does not serve it", tc.profile, m)
			}
		}
		for _, m := range tc.not {
			if p.ServesModel(m) {
				t.Errorf("%s: %s is served by the declaration", tc.profile, m)
			}
		}
	}
	if by["deepseek-anthropic"].Serves != nil {
		t.Error("deepseek-anthropic declares what it serves, but DeepSeek's Anthropic endpoint maps any unsupported model name to deepseek-v4-flash")
	}
}
