package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// An engineBaseline is what `gate --engine` holds an implementation to:
// its expectations (or a matrix.yaml lending its declarations), or a
// matrix it printed before (run --engine --format json).
type engineBaseline struct {
	path   string
	expect scenario.Declarations
	saved  *report.Matrix
}

// loadEngineBaseline reads --baseline: a JSON matrix, else expectations.
func loadEngineBaseline(path string, mf *matrix.File) (*engineBaseline, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--baseline: %w", err)
	}
	if trimmed := bytes.TrimSpace(b); len(trimmed) > 0 && trimmed[0] == '{' {
		m, err := report.ReadJSON(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("--baseline %s: %w", path, err)
		}
		return &engineBaseline{path: path, saved: m}, nil
	}
	e := expectFlags{read: path}
	d, err := e.load(mf)
	if err != nil {
		return nil, err
	}
	return &engineBaseline{path: path, expect: d}, nil
}

// An engineChange is one cell of the engine's gate: worse than the
// baseline (a regression), or better.
type engineChange struct {
	Cell       report.Cell `json:"cell"`
	Was        string      `json:"was,omitempty"`
	Regression bool        `json:"regression"`
}

// failing reports whether a status is a failure, expected or not.
func failing(s report.Status) bool { return s == report.StatusFail || s == report.StatusKnownFail }

// judged reports whether a status is a verdict.
func judged(s report.Status) bool {
	return s != report.StatusUnverified && s != report.StatusError
}

// engineChanges compares the engine's matrix with the baseline. Against
// expectations, every cell that fails (unexpectedly, for another cause, or
// expected and passing now) or is not judged regresses. Against a saved
// matrix, a cell regresses when it fails and did not, or is not judged and
// was; a cell that failed and passes now is an improvement.
func engineChanges(m *report.Matrix, b *engineBaseline) []engineChange {
	var out []engineChange
	for _, c := range m.Cells {
		if b.saved == nil {
			if c.Status == report.StatusFail || !judged(c.Status) {
				out = append(out, engineChange{Cell: c, Regression: true})
			}
			continue
		}
		was, ok := b.saved.Cell(c.Target, c.Scenario)
		switch {
		case !ok && (c.Status == report.StatusFail || !judged(c.Status)):
			out = append(out, engineChange{Cell: c, Was: "(new)", Regression: true})
		case !ok:
		case failing(c.Status) && !failing(was.Status) && judged(was.Status):
			out = append(out, engineChange{Cell: c, Was: string(was.Status), Regression: true})
		case !judged(c.Status) && judged(was.Status):
			out = append(out, engineChange{Cell: c, Was: string(was.Status), Regression: true})
		case failing(was.Status) && !failing(c.Status) && judged(c.Status):
			out = append(out, engineChange{Cell: c, Was: string(was.Status)})
		}
	}
	return out
}

// writeEngineGate prints the engine gate's verdict: text or json.
func writeEngineGate(w io.Writer, format string, m *report.Matrix, b *engineBaseline, changes []engineChange) error {
	impl := "the implementation"
	if m.Implementation != nil {
		impl = strings.TrimSpace(m.Implementation.Name + " " + m.Implementation.Version)
	}
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Implementation string         `json:"implementation"`
			Baseline       string         `json:"baseline"`
			Cells          int            `json:"cells"`
			Changes        []engineChange `json:"changes"`
		}{impl, b.path, len(m.Cells), append([]engineChange{}, changes...)})
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "gate: %s against %s: %d cells\n", impl, b.path, len(m.Cells))
	regressions := 0
	for _, ch := range changes {
		c := ch.Cell
		kind := "IMPROVED  "
		if ch.Regression {
			kind, regressions = "REGRESSION", regressions+1
		}
		was := ""
		if ch.Was != "" {
			was = ch.Was + " -> "
		}
		fmt.Fprintf(&sb, "%s  %s: %s%s\n", kind, c.ID(), was, c.Status)
		if c.Detail != "" {
			fmt.Fprintf(&sb, "            %s\n", c.Detail)
		}
		if c.Expected != "" || c.Actual != "" {
			fmt.Fprintf(&sb, "            expected: %s\n            actual: %s\n", c.Expected, c.Actual)
		}
		if c.ProviderError != "" {
			fmt.Fprintf(&sb, "            provider error: %s\n", c.ProviderError)
		}
	}
	if regressions == 0 {
		fmt.Fprintf(&sb, "gate: no cell got worse than %s\n", b.path)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// runEngineGate is `gate --engine CMD --baseline FILE`: the gate for an
// agent whose route table is code. The implementation runs over the
// committed cassettes and every cell worse than the baseline fails the
// step.
func runEngineGate(ctx context.Context, std *streams, f *commandFlags, eng engineFlags, baseline, cassettes, profilesDir, format string) error {
	if format != "text" && format != "json" {
		return f.usagef("--format %q with --engine: want text or json", format)
	}
	mf, err := f.loadMatrix()
	if err != nil {
		return err
	}
	b, err := loadEngineBaseline(baseline, mf)
	if err != nil {
		return err
	}
	profiles, err := loadProfiles(profilesDir)
	if err != nil {
		return err
	}
	if err := checkDir(cassettes); err != nil {
		return err
	}
	client, err := eng.start(ctx, f)
	if err != nil {
		return err
	}
	defer client.Close()
	r := &scenario.Runner{Matrix: mf, Profiles: profiles, CassetteDir: cassettes, Engine: client, Expect: b.expect}
	p := newProgress(std.err, len(mf.Targets)*len(scenario.All()))
	p.coarse, p.verb = true, "gate"
	m, err := r.RunMatrix(ctx, nil, nil, p.cell)
	p.done()
	if err != nil {
		return err
	}
	changes := engineChanges(m, b)
	if err := writeEngineGate(std.out, format, m, b, changes); err != nil {
		return err
	}
	regressions, errs := 0, 0
	for _, ch := range changes {
		if ch.Regression {
			regressions++
		}
		if ch.Cell.Status == report.StatusError {
			errs++
		}
	}
	switch {
	case errs > 0:
		return incomplete(errs, cellsNotJudged[0], cellsNotJudged[1])
	case regressions == 1:
		return &failuresError{n: 1, what: "cell regressed"}
	case regressions > 0:
		return &failuresError{n: regressions, what: "cells regressed"}
	}
	return nil
}
