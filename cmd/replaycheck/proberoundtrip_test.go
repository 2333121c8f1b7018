package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/replaycheck/replaycheck/report"
)

// TestProbeAdoptRoundTrip probes a provider of each kind, simulated by
// `serve` on loopback, adopts the proposal mechanically (`replaycheck
// adopt` on a copy of the repository's matrix.yaml, cassettes and
// providers) and runs the new target: every applicable cell passes,
// answered by the adopted cassettes alone (under --strict-replay too),
// nothing unverified, and the edited matrix.yaml keeps every line it had.
func TestProbeAdoptRoundTrip(t *testing.T) {
	// probe refuses to run under CI without --force; this test is no live probe.
	t.Setenv("CI", "")
	tests := []struct {
		kind, profile, mode, path, model string
		judged                           int
	}{
		// must-echo: fallback too, as its provider needs reasoning_content back
		{"must-echo", "deepseek", "chat", "/v1", "acme-reasoner", 6},
		{"strict", "mistral", "chat", "/v1", "acme-reasoner", 6},
		{"gateway", "openrouter", "chat", "/v1", "acme-reasoner", 5},
		{"Anthropic-signed", "anthropic", "anthropic", "", "claude-opus-4-6", 6},
		{"Gemini", "gemini", "gemini", "/v1beta", "gemini-3-pro-preview", 5},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			srv := startServe(t, tt.profile)
			out := t.TempDir()
			r := runMain(t, "", "probe", "--provider", "acme", "--api-mode", tt.mode, "--base-url", srv.url+tt.path, "--model", tt.model,
				"--no-key", "--max-requests", "1000", "--out", out, "--matrix", repoMatrix)
			if code := srv.stop(t, syscall.SIGTERM); code != 0 {
				t.Errorf("serve exit %d", code)
			}
			if r.code != 0 {
				t.Fatalf("probe: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stdout, "replaycheck adopt "+out) {
				t.Errorf("the probe does not say how to adopt its proposal:\n%s", r.stdout)
			}
			repo := t.TempDir()
			matrixPath := filepath.Join(repo, "matrix.yaml")
			copyFile(t, repoMatrix, matrixPath)
			cassettes, profiles := copyTree(t, repoCassettes), copyTree(t, repoProviders)
			a := runMain(t, "", "adopt", "--matrix", matrixPath, "--cassettes", cassettes, "--providers", profiles, out)
			if a.code != 0 {
				t.Fatalf("adopt: exit %d\n%s\n%s", a.code, a.stdout, a.stderr)
			}
			before, _ := os.ReadFile(repoMatrix)
			after, _ := os.ReadFile(matrixPath)
			if kept := lostLine(string(before), string(after)); kept != "" {
				t.Errorf("adopting changed or dropped a line of matrix.yaml: %q", kept)
			}
			for _, strict := range []bool{false, true} {
				args := []string{"run", "--matrix", matrixPath, "--cassettes", cassettes, "--providers", profiles, "--target", "acme", "--format", "json"}
				if strict {
					args = append(args, "--strict-replay")
				}
				run := runMain(t, "", args...)
				if run.code != 0 {
					t.Errorf("run --target acme (strict %v): exit %d\n%s\n%s", strict, run.code, run.stdout, run.stderr)
				}
				var m report.Matrix
				if err := json.Unmarshal([]byte(run.stdout), &m); err != nil {
					t.Fatalf("run --format json: %v\n%s", err, run.stdout)
				}
				judged := 0
				for _, c := range m.Cells {
					switch {
					case c.Status == report.StatusNA:
					case c.Status != report.StatusPass:
						t.Errorf("acme/%s (strict %v): %s: %s %s", c.Scenario, strict, c.Status, c.Detail, c.ProviderError)
					case c.Provenance != report.ProvenanceSimulated:
						t.Errorf("acme/%s (strict %v): provenance %s, want the adopted cassette's", c.Scenario, strict, c.Provenance)
					default:
						judged++
					}
				}
				if len(m.Scenarios) != 9 || judged != tt.judged {
					t.Errorf("strict %v: %d cells passed of %d scenarios, want %d of 9", strict, judged, len(m.Scenarios), tt.judged)
				}
			}
		})
	}
}

// lostLine returns a line of before that after lacks, save one edited in
// place (a row's flow list of providers that grew).
func lostLine(before, after string) string {
	have := map[string]int{}
	for _, l := range strings.Split(after, "\n") {
		have[l]++
	}
	edited := 0
	for _, l := range strings.Split(before, "\n") {
		if have[l] > 0 {
			have[l]--
			continue
		}
		if edited++; edited > 1 {
			return l
		}
	}
	return ""
}
