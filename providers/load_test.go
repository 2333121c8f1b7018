package providers

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// committed lists the profiles the harness targets; every one must exist.
var committed = []string{
	"anthropic", "azure-openai-responses", "bedrock-anthropic", "bedrock-converse",
	"bedrock-converse-claude-legacy", "bedrock-converse-deepseek", "bedrock-converse-kimi", "bedrock-converse-minimax", "bedrock-converse-nova",
	"bedrock-converse-nova-pro", "bedrock-converse-openai",
	"bedrock-deepseek-anthropic", "cerebras", "copilot", "dashscope", "deepseek", "deepseek-anthropic",
	"deepseek-responses", "fireworks", "foundry-anthropic", "gemini", "gemini-openai", "glm", "groq", "huggingface", "hunyuan",
	"kilo", "kimi", "kimi-anthropic", "llama-cpp", "lmstudio", "mimo", "minimax", "minimax-anthropic",
	"mistral", "nous-anthropic", "nous-portal", "novita", "ollama", "openai", "openai-responses", "openrouter", "openrouter-deepseek",
	"openrouter-responses", "sambanova", "tencent-tokenhub", "upstage", "vercel-ai-gateway", "vercel-ai-gateway-anthropic", "vercel-ai-gateway-deepseek", "vertex-anthropic", "vertex-gemini", "vertex-gemini-openai", "vllm", "xai",
}

func TestEmbeddedProfilesLoadAndValidate(t *testing.T) {
	ps, err := Embedded()
	if err != nil {
		t.Fatalf("Embedded: %v", err)
	}
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
		if err := p.Validate(); err != nil {
			t.Errorf("%s: Validate after load: %v", p.Name, err)
		}
	}
	if diff := cmp.Diff(committed, names); diff != "" {
		t.Errorf("embedded profile names (-want +got):\n%s", diff)
	}
}

func TestLoadDirMatchesEmbedded(t *testing.T) {
	fromDir, err := LoadDir(".")
	if err != nil {
		t.Fatalf("LoadDir: %v", err)
	}
	embedded, err := Embedded()
	if err != nil {
		t.Fatalf("Embedded: %v", err)
	}
	if diff := cmp.Diff(embedded, fromDir); diff != "" {
		t.Errorf("LoadDir(.) differs from Embedded (-embedded +dir):\n%s", diff)
	}
}

func TestLoadDir(t *testing.T) {
	valid := func(name string) string { return strings.Replace(baseProfile, "name: neg", "name: "+name, 1) }
	tests := []struct {
		reason  string
		files   map[string]string
		want    []string // profile names, in order
		wantErr string
	}{
		{
			reason: "profiles come back sorted by name, whatever the directory order",
			files:  map[string]string{"zeta.yaml": valid("zeta"), "alpha.yaml": valid("alpha"), "notes.txt": "ignored"},
			want:   []string{"alpha", "zeta"},
		},
		{
			reason:  "a broken file fails the whole load and is named with its line",
			files:   map[string]string{"alpha.yaml": valid("alpha"), "beta.yaml": strings.Replace(valid("beta"), "version: 1", "version: 0", 1)},
			wantErr: "beta.yaml:2: version must be at least 1, got 0",
		},
		{
			reason:  "a valid file does not hide a broken sibling",
			files:   map[string]string{"alpha.yaml": valid("alpha"), "beta.yaml": strings.Replace(valid("beta"), "api_mode: chat", "api_mode: rest", 1)},
			wantErr: `beta.yaml:4: unknown api_mode "rest"`,
		},
		{
			reason:  "a directory without profiles is an error, not an empty table",
			files:   map[string]string{"readme.md": "nothing"},
			wantErr: "no profiles (*.yaml)",
		},
	}
	for _, tc := range tests {
		t.Run(tc.reason, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ps, err := LoadDir(dir)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("LoadDir error = %v, want it to contain %q", err, tc.wantErr)
				}
				if ps != nil {
					t.Errorf("LoadDir returned profiles with an error")
				}
				return
			}
			if err != nil {
				t.Fatalf("LoadDir: %v", err)
			}
			var got []string
			for _, p := range ps {
				got = append(got, p.Name)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("both broken files are named", func(t *testing.T) {
		dir := t.TempDir()
		for name, text := range map[string]string{"alpha.yaml": valid("wrong"), "beta.yaml": valid("beta2")} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, err := LoadDir(dir)
		for _, want := range []string{"alpha.yaml:1:", "beta.yaml:1:"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("LoadDir error = %v, want it to contain %q", err, want)
			}
		}
	})
}

func TestLoadMissing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "absent.yaml")
	_, err := Load(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+": cannot read profile") || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load(missing) = %v, want a %q-prefixed error wrapping os.ErrNotExist", err, path)
	}
	_, err = LoadDir(filepath.Join(dir, "nope"))
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadDir(missing) = %v, want an error wrapping os.ErrNotExist", err)
	}
}

func TestLoadReadsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "neg.yaml")
	if err := os.WriteFile(path, []byte(baseProfile), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Load(path)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	want := Rule{
		ID:         "must-echo",
		When:       Condition{Kind: ConditionToolTurnFieldMissing, Field: "reasoning_content", BlankIsMissing: true},
		Status:     400,
		Body:       `{"error":{"message":"missing at {index}","type":"invalid_request_error"}}`,
		Source:     "example/repo#1",
		Confidence: ConfidenceConfirmed,
	}
	if len(p.Rules) != 1 {
		t.Fatalf("rules = %d, want 1", len(p.Rules))
	}
	if diff := cmp.Diff(want, p.Rules[0]); diff != "" {
		t.Errorf("decoded rule (-want +got):\n%s", diff)
	}
	if p.Flags[0].Value != "all" || p.Signing == nil || p.Signing.Scheme != SchemeEncryptedDetails {
		t.Errorf("flags/signing decoded wrong: %+v %+v", p.Flags, p.Signing)
	}
}

func TestByName(t *testing.T) {
	list, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	byName := ByName(list)
	if len(byName) != len(list) {
		t.Fatalf("%d names for %d profiles: names must be unique", len(byName), len(list))
	}
	for _, p := range list {
		if byName[p.Name] != p {
			t.Errorf("%s maps to another profile", p.Name)
		}
	}
}
