package providers

import (
	"strings"
	"testing"
)

// TestServesPaths: serves.paths closes the base-URL paths of the
// profile's own api mode and speaks for no other; a bad entry is named.
func TestServesPaths(t *testing.T) {
	const decl = "serves:\n  paths: [/anthropic]\n  source: https://example.com/base-urls\n  confidence: confirmed\n  note: the docs give one base URL\n"
	p, err := Parse(negFile, []byte(baseProfile+decl))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode, baseURL string
		want          bool
	}{
		{"chat", "https://api.example.com/anthropic", true},
		{"chat", "https://api.example.com/v2/anthropic/", true},
		{"chat", "https://api.example.com", false},
		{"chat", "https://api.example.com/v1", false},
		{"chat", "https://api.example.com/anthropicx", false},
		{"anthropic", "https://api.example.com/v1", true}, // another mode: the paths say nothing
	} {
		if got := p.ServesPath(tc.mode, tc.baseURL); got != tc.want {
			t.Errorf("ServesPath(%s, %s) = %v, want %v", tc.mode, tc.baseURL, got, tc.want)
		}
	}
	if !p.ServesModel("anything-1") || !p.ServesHost("eu.api.example.com") {
		t.Error("a declaration of paths alone refused a model or a host")
	}
	for _, tc := range []struct{ reason, paths, want string }{
		{"no leading slash", "[anthropic]", `serves: path "anthropic" is not a run of whole segments`},
		{"a trailing slash", "[/anthropic/]", `serves: path "/anthropic/" is not a run of whole segments`},
		{"the root", "[/]", `serves: path "/" is not a run of whole segments`},
		{"an empty segment", "[/a//b]", `serves: path "/a//b" is not a run of whole segments`},
		{"twice", "[/anthropic, /anthropic]", `serves: path "/anthropic" is listed twice`},
	} {
		text := baseProfile + strings.Replace(decl, "[/anthropic]", tc.paths, 1)
		if _, err := Parse(negFile, []byte(text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.reason, err, tc.want)
		}
	}
}

// TestCommittedServesPaths: Claude on Vertex is served under its
// publisher's path, on Foundry and at MiniMax under /anthropic.
func TestCommittedServesPaths(t *testing.T) {
	ps, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	by := ByName(ps)
	for _, tc := range []struct{ profile, served, not string }{
		{"vertex-anthropic", "https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/anthropic/models", "https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/google/models"},
		{"foundry-anthropic", "https://r.services.ai.azure.com/anthropic", "https://r.services.ai.azure.com/models"},
		{"minimax-anthropic", "https://api.minimax.io/anthropic", "https://api.minimax.io/v1"},
	} {
		p := by[tc.profile]
		if !p.ServesPath(p.APIMode, tc.served) || p.ServesPath(p.APIMode, tc.not) {
			t.Errorf("%s: ServesPath(%s) = %v, ServesPath(%s) = %v, want true, false", tc.profile,
				tc.served, p.ServesPath(p.APIMode, tc.served), tc.not, p.ServesPath(p.APIMode, tc.not))
		}
	}
}
