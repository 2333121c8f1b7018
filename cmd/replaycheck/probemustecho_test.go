package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestProbeMustEchoAgainstServe probes the DeepSeek profile served on
// loopback (a must-echo provider): its 400s come from the missing
// reasoning_content, and every variant that carried it was accepted, ""
// included under a model the legacy rule answers. So the probe reports no
// refusal of reasoning or reasoning_details, writes no rule refusing them
// and no blank_is_missing, and names the variant behind each conclusion,
// in its output and in the draft profile's rule.
func TestProbeMustEchoAgainstServe(t *testing.T) {
	srv := startServe(t, "deepseek")
	out := t.TempDir()
	r := runBinary(t, testEnv(t), "probe", "--provider", "acme", "--base-url", srv.url+"/v1", "--model", "acme-reasoner",
		"--no-key", "--max-requests", "1000", "--out", out, "--matrix", repoMatrix)
	if r.code != 0 {
		t.Fatalf("probe: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, bad := range []string{"refused reasoning:", "refused reasoning_details:", "reasoning-refused", "reasoning-details-refused", "blank_is_missing: true"} {
		if strings.Contains(r.stdout, bad) {
			t.Errorf("probe output has %q, though every variant that carried reasoning_content was accepted:\n%s", bad, r.stdout)
		}
	}
	for _, want := range []string{
		"accepted on an assistant message: reasoning_content, reasoning, reasoning_details\n",
		"reasoning: accepted on an assistant message (shown by strict-schema battery, variant {reasoning_content, reasoning}: 200",
		"reasoning_details: accepted on an assistant message (shown by strict-schema battery, variant {reasoning_content, reasoning_details}: 200",
		"reasoning_content on a tool-call turn: required (must-echo): a bare tool-call turn is refused, and the one-space pad accepted (shown by missing-echo battery, variant {reasoning_content} unpadded",
		`reasoning_content "": accepted: "" does not count as missing (blank_is_missing: false) (shown by missing-echo battery, the same turn with reasoning_content "": 200`,
		"echo_families: append\n  - {name: acme, providers: [acme]}",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("probe output lacks %q:\n%s", want, r.stdout)
		}
	}
	raw, err := os.ReadFile(filepath.Join(out, "providers", "acme.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	draft := string(raw)
	if strings.Count(draft, "- id: ") != 1 || !strings.Contains(draft, "id: reasoning-content-missing") {
		t.Errorf("the draft profile should hold the one must-echo rule:\n%s", draft)
	}
	if !strings.Contains(draft, "variant {reasoning_content} unpadded") || !strings.Contains(draft, `the same turn with reasoning_content "": 200`) {
		t.Errorf("the draft's rule does not name its evidence:\n%s", draft)
	}
	if code := srv.stop(t, syscall.SIGTERM); code != 0 {
		t.Errorf("serve exit %d", code)
	}
}
