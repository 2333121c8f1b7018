package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// TestProbeAgainstServe probes a provider the table does not know — the
// Cerebras profile served on loopback under another name — end to end.
func TestProbeAgainstServe(t *testing.T) {
	srv := startServe(t, "cerebras")
	out := t.TempDir()
	env := testEnv(t, "ACME_KEY=sk-test-0123456789abcdefghij")
	r := runBinary(t, env, "probe", "--provider", "acme", "--base-url", srv.url+"/v1", "--model", "acme-reasoner",
		"--key-env", "ACME_KEY", "--max-requests", "200", "--out", out, "--matrix", repoMatrix)
	if r.code != 0 {
		t.Fatalf("probe: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		"accepted on an assistant message: reasoning\n",
		"read (the answer changed with it): reasoning\n",
		"refused reasoning_content: 400",
		"refused reasoning_details: 400",
		"must echo: no",
		"  - {id: acme, api_mode: chat, provider: acme,",
		"carrier_routes: append\n  - {id: acme, carriers: [reasoning], providers: [acme]}",
		"its column of the matrix under the proposal (every scenario the draft profile says applies: carriers, strict-schema, fallback, resume, compaction, branch):",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("probe output lacks %q:\n%s", want, r.stdout)
		}
	}
	draft := filepath.Join(out, "providers", "acme.yaml")
	raw, err := os.ReadFile(draft)
	if err != nil {
		t.Fatal(err)
	}
	p, err := providers.Parse(draft, raw)
	if err != nil {
		t.Fatalf("the draft profile does not validate: %v", err)
	}
	if p.Confidence != providers.ConfidenceUnconfirmed || len(p.Rules) != 2 {
		t.Errorf("draft profile: confidence %s, %d rules; want unconfirmed with the two refusals", p.Confidence, len(p.Rules))
	}
	for _, path := range []string{
		harness.Path(out, "acme", "carriers"), harness.Path(out, "acme", "strict-schema"), harness.Path(out, "acme", "fallback"),
		harness.Path(filepath.Join(out, "evidence"), "acme", "missing-echo"), harness.Path(filepath.Join(out, "evidence"), "acme", "signed-roundtrip"),
	} {
		f, err := harness.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if f.Provenance.Kind != harness.Simulated || len(harness.Scan(f)) > 0 {
			t.Errorf("%s: provenance %s, credential findings %v", path, f.Provenance.Kind, harness.Scan(f))
		}
	}
	if strings.Contains(r.stdout, "sk-test") {
		t.Error("the probe printed the key")
	}
	if code := srv.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("serve exit %d", code)
	}
}

func TestProbeRefuses(t *testing.T) {
	tests := []struct {
		env    []string
		args   []string
		stderr string
		reason string
	}{
		{[]string{"CI=true"}, []string{"--provider", "acme", "--base-url", "http://127.0.0.1:1/v1", "--model", "m"}, "refusing to probe under CI", "probing spends requests"},
		{nil, []string{"--base-url", "http://127.0.0.1:1/v1", "--model", "m"}, "--provider", "the provider is required"},
		{nil, []string{"--provider", "acme", "--base-url", "http://127.0.0.1:1/v1", "--model", "m", "--key-env", "NO_SUCH_VAR_X"}, "--key-env NO_SUCH_VAR_X", "an unset key variable"},
		{nil, []string{"--provider", "deepseek", "--base-url", "http://127.0.0.1:1/v1", "--model", "m", "--no-key", "--matrix", repoMatrix}, "already in", "a provider the table already has"},
	}
	for _, tt := range tests {
		r := runBinary(t, testEnv(t, tt.env...), append([]string{"probe"}, tt.args...)...)
		if r.code == 0 || !strings.Contains(r.stderr, tt.stderr) {
			t.Errorf("%s: exit %d, stderr %q; want a refusal mentioning %q", tt.reason, r.code, r.stderr, tt.stderr)
		}
	}
}

// TestProbeCap: a live probe says its cap before it sends anything, and a
// cap it hits is quoted as the user set it, with the URL actually used
// (--base-url), not what is left of it nor the provider's production URL.
func TestProbeCap(t *testing.T) {
	srv := startServe(t, "deepseek")
	r := runBinary(t, testEnv(t), "probe", "--provider", "acme", "--base-url", srv.url+"/v1", "--model", "acme-reasoner",
		"--no-key", "--max-requests", "12", "--out", t.TempDir(), "--matrix", repoMatrix)
	if r.code != exitHarness {
		t.Fatalf("exit %d, want 3 at the cap\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"probe: at most 12 requests (--max-requests)\n", "(--max-requests 12)", srv.url} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	r = runBinary(t, testEnv(t), "probe", "--provider", "acme", "--base-url", srv.url+"/v1", "--model", "acme-reasoner",
		"--no-key", "--out", t.TempDir(), "--matrix", repoMatrix)
	if !strings.Contains(r.stderr, "probe: at most 300 requests (--max-requests)\n") {
		t.Errorf("no default cap said:\n%s", r.stderr)
	}
}
