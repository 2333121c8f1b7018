//go:build connectors

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/report"
)

// The connectors over real agent stacks live in modules of their own with
// their libraries pinned; `make test-connectors` builds them and runs these
// tests under the connectors build tag (.ci/run runs it).

// TestConnectorFantasy runs the whole committed matrix through the
// charm.land/fantasy connector against its expectations: the run exits 0,
// no cell is unverified or an error, and a few library defects fail for
// their cause.
func TestConnectorFantasy(t *testing.T) {
	bin, err := filepath.Abs("../../connectors/fantasy/bin/fantasy-connector")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("the fantasy connector is not built (make connectors): %v", err)
	}
	expect, err := filepath.Abs("../../connectors/fantasy/expect.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := runMain(t, "", committedRunArgs("--engine", bin, "--expect", expect)...)
	if r.code != 0 {
		t.Fatalf("exit %d with the committed expectations, want 0; stderr:\n%s", r.code, r.stderr)
	}
	m := decodeMatrix(t, r.stdout)
	if m.Implementation == nil || m.Implementation.Name != "charm.land/fantasy" {
		t.Errorf("the matrix names %v, want charm.land/fantasy", m.Implementation)
	}
	judged := 0
	for _, c := range m.Cells {
		switch c.Status {
		case report.StatusUnverified, report.StatusError:
			t.Errorf("%s is %s: %s", c.ID(), c.Status, c.Detail)
		case report.StatusPass, report.StatusKnownFail:
			judged++
		}
	}
	if judged == 0 {
		t.Fatal("no cell was judged")
	}
	// Library defects, each failing for its own cause.
	for _, tc := range []struct{ cell, detail, reason string }{
		{"deepseek/missing-echo", "must be passed back", "openaicompat never pads a bare tool-call turn"},
		{"mistral/strict-schema", "Extra inputs are not permitted", "openaicompat sends reasoning_content to a strict provider"},
		{"openrouter/signed-roundtrip", "every signed/opaque value", "the openrouter provider drops redacted thinking's data"},
		{"copilot/signed-roundtrip", "every signed/opaque value", "reasoning_opaque is neither captured nor replayed"},
	} {
		target, scenario, _ := strings.Cut(tc.cell, "/")
		c, ok := m.Cell(target, scenario)
		if !ok {
			t.Errorf("%s: no cell %s", tc.reason, tc.cell)
			continue
		}
		evidence := c.Detail + " " + c.Expected + " " + c.ProviderError
		if c.Status != report.StatusKnownFail || !strings.Contains(evidence, tc.detail) {
			t.Errorf("%s: %s = %s (%s), want known-fail with %q", tc.reason, tc.cell, c.Status, c.Detail, tc.detail)
		}
	}
	// What the library does right stays right.
	for _, cell := range []string{"openrouter/carriers", "openrouter/branch", "deepseek/resume", "fireworks/carriers"} {
		target, scenario, _ := strings.Cut(cell, "/")
		if c, _ := m.Cell(target, scenario); c.Status != report.StatusPass {
			t.Errorf("%s = %s (%s), want pass", cell, c.Status, c.Detail)
		}
	}
}
