package scenario_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
	"github.com/replaycheck/replaycheck/scenario/scenariotest"
)

// partial is the reference engine without branches, taking part in chat
// targets only: an engine as a connector with gaps would be.
type partial struct{ table *engine.Table }

func (partial) Info() report.Implementation {
	return report.Implementation{Name: "partial", Version: "0"}
}

func (partial) Supports(t matrix.Target, _ scenario.Scenario) (bool, string) {
	if t.Route.APIMode != engine.ModeChat {
		return false, "partial shapes chat only"
	}
	return true, ""
}

func (p partial) Open(_ context.Context, dir string) (scenario.Implementation, error) {
	return noBranch{scenario.Reference{Table: p.table, Dir: dir}}, nil
}

type noBranch struct{ scenario.Reference }

func (noBranch) Branch(context.Context, *engine.Session, string) (*engine.Session, error) {
	return nil, &scenario.UnsupportedError{Implementation: "partial", Step: "branch", Reason: "no branches yet"}
}

// stepFailed is an implementation's own error answer for a step.
type stepFailed struct{ step, msg string }

func (e stepFailed) Error() string      { return e.msg }
func (e stepFailed) FailedStep() string { return e.step }

// Compact answers with a step failure, as a connector's error reply.
func (noBranch) Compact(context.Context, *engine.Session, engine.Decision, int) (engine.CompactResult, error) {
	return engine.CompactResult{}, stepFailed{"compact", "compaction is not wired to the agent yet"}
}

// Reload fails the way a crashed or garbled connector does: not a verdict.
func (noBranch) Reload(context.Context, *engine.Session) (*engine.Session, error) {
	return nil, errors.New("engine protocol: reload request 9: the implementation closed its output before answering")
}

// TestRunnerEngine checks how the runner treats an implementation that is
// not the reference engine: the matrix names it, an api mode it does not
// support is n/a with its reason, an unsupported step is n/a with the
// implementation's reason and no provenance, and every other cell is the
// reference engine's.
func TestRunnerEngine(t *testing.T) {
	f, profiles := scenariotest.Committed(t)
	ids := []string{"deepseek", "anthropic"}
	ref := &scenario.Runner{Matrix: f, Profiles: profiles, CassetteDir: "../cassettes"}
	want, err := ref.RunMatrix(context.Background(), ids, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &scenario.Runner{Matrix: f, Profiles: profiles, CassetteDir: "../cassettes", Engine: partial{&f.Table}}
	got, err := r.RunMatrix(context.Background(), ids, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := got.Validate(); err != nil {
		t.Fatalf("the matrix is not valid: %v", err)
	}
	if got.Implementation == nil || got.Implementation.Name != "partial" || want.Implementation.Name != scenario.ReferenceInfo.Name {
		t.Errorf("implementations named %v and %v", got.Implementation, want.Implementation)
	}
	tests := []struct {
		cell   string
		status report.Status
		detail string
		reason string
	}{
		{"deepseek/branch", report.StatusNA, "partial does not support the branch step: no branches yet; judged before it: 1 request(s), 1 accepted, carrying no reasoning key",
			"an unsupported step is n/a with the reason, and keeps what was judged before it (the turn branch replays)"},
		{"anthropic/carriers", report.StatusNA, "partial shapes chat only", "an unsupported api mode is n/a with the reason"},
		{"deepseek/carriers", report.StatusPass, "", "other cells are the reference engine's"},
		{"deepseek/compaction", report.StatusFail, "the implementation failed its compact step: compaction is not wired to the agent yet", "a step the implementation answers as failed fails the cell"},
		{"deepseek/resume", report.StatusError, "harness error: engine protocol: reload request 9: the implementation closed its output before answering", "a crash leaves the cell not judged"},
	}
	for _, tc := range tests {
		target, name, _ := strings.Cut(tc.cell, "/")
		c, _ := got.Cell(target, name)
		if c.Status != tc.status || (tc.detail != "" && c.Detail != tc.detail) || (tc.status == report.StatusNA && c.Provenance != "") {
			t.Errorf("%s: %s = %s %q (%s), want %s %q", tc.reason, tc.cell, c.Status, c.Detail, c.Provenance, tc.status, tc.detail)
		}
		if tc.status == report.StatusPass {
			w, _ := want.Cell(c.Target, c.Scenario)
			if w != c {
				t.Errorf("%s: %s = %+v, the reference engine's is %+v", tc.reason, tc.cell, c, w)
			}
		}
	}
}
