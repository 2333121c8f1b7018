package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
	"go.yaml.in/yaml/v3"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// expectFlags are run's --expect and --write-expect: an implementation's
// own expectations, read or written.
type expectFlags struct {
	read, write string
}

func (e *expectFlags) register(f *commandFlags) {
	f.StringVar(&e.read, "expect", "", "judge the --engine implementation against its own expectations `FILE` (the cells it is expected to fail or leave advisory); without it no declaration applies to an engine")
	f.StringVar(&e.write, "write-expect", "", "write the --engine implementation's failing and advisory cells to the expectations `FILE`, each with its cause, and judge the run against it")
}

// check refuses expectations without an engine, and both flags at once.
func (e *expectFlags) check(f *commandFlags, engine bool) error {
	switch {
	case e.read != "" && e.write != "":
		return f.usagef("--expect and --write-expect: give one (--write-expect writes the file --expect reads)")
	case (e.read != "" || e.write != "") && !engine:
		return f.usagef("--expect and --write-expect judge an --engine implementation: the reference engine's declarations are matrix.yaml's known_failures and advisories")
	}
	return nil
}

// load reads the expectations --expect names, or returns nil. A
// matrix.yaml given there lends its own declarations: the reference
// table's, for the reference engine run over the protocol.
func (e *expectFlags) load(mf *matrix.File) (scenario.Declarations, error) {
	if e.read == "" {
		return nil, nil
	}
	b, err := os.ReadFile(e.read)
	if err != nil {
		return nil, fmt.Errorf("--expect: %w", err)
	}
	var top map[string]any
	if yaml.Unmarshal(b, &top) == nil && top["targets"] != nil {
		return matrix.Parse(e.read, b)
	}
	return matrix.ParseExpectations(e.read, b, mf)
}

// writeExpectations writes every failing cell of m to path as expected (a
// failing advisory as an advisory), each pinned to its cause, and judges
// the cells against them: the matrix then shows what the file declares.
// Unverified and error cells are not judged, so they are never expected.
func writeExpectations(path string, m *report.Matrix) (*matrix.Expectations, error) {
	e := &matrix.Expectations{Path: path}
	for i, c := range m.Cells {
		if c.Status != report.StatusFail {
			continue
		}
		k := matrix.KnownFailure{Target: c.Target, Scenario: c.Scenario}
		if detail, ok := strings.CutPrefix(c.Detail, scenario.UndeclaredAdvisory); ok {
			detail, _, _ = strings.Cut(detail, scenario.UndeclaredWhy)
			detail = withoutUse(detail)
			k.Reason = "written by --write-expect: " + detail
			e.Advisories = append(e.Advisories, k)
			m.Cells[i].Status, m.Cells[i].Detail = report.StatusAdvisory, "expected advisory ("+detail+")"
			continue
		}
		k.Reason, k.Cause = "written by --write-expect: "+withoutUse(c.Detail), causeOf(c)
		e.KnownFailures = append(e.KnownFailures, k)
		m.Cells[i].Status, m.Cells[i].Detail = report.StatusKnownFail, "expected failure ("+c.Detail+")"
	}
	var b bytes.Buffer
	impl := "the implementation"
	if m.Implementation != nil {
		impl = strings.TrimSpace(m.Implementation.Name + " " + m.Implementation.Version)
	}
	if err := matrix.WriteExpectations(&b, impl, e); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return nil, fmt.Errorf("--write-expect: %w", err)
	}
	return e, nil
}

// withoutUse drops the count of recorded interactions a detail ends with:
// bookkeeping, not a reason.
func withoutUse(detail string) string {
	if i := strings.Index(detail, "; used "); i >= 0 && strings.Contains(detail[i:], " recorded interactions") {
		return detail[:i]
	}
	return detail
}

// causeMax bounds a cause: a phrase to find again, not the whole evidence.
const causeMax = 120

// causeOf is the phrase a failing cell is pinned to: the provider's own
// message when it refused, else what the scenario expected and saw not,
// else its detail; it is always a part of the cell's evidence.
func causeOf(c report.Cell) string {
	if c.ProviderError != "" {
		body := strings.TrimSpace(c.ProviderError)
		for _, path := range []string{"error.message", "0.error.message", "message", "detail.0.msg", "error"} {
			if v := gjson.Get(body, path); v.Type == gjson.String && v.Str != "" && strings.Contains(strings.ReplaceAll(body, `\"`, `"`), v.Str) {
				return clip(v.Str)
			}
		}
		return clip(body)
	}
	if c.Expected != "" {
		return clip(c.Expected)
	}
	return clip(c.Detail)
}

// clip cuts s to causeMax bytes on a rune boundary.
func clip(s string) string {
	if len(s) <= causeMax {
		return s
	}
	s = s[:causeMax]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
