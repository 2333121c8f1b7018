package suites_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
)

// implementationsList (from the repository root, where the suite runs)
// names the implementations of the implementations
// report, each with its folder and engine command.
const implementationsList = "connectors/implementations.txt"

// implementationRows are the rows of the implementations report: the
// reference engine's matrix, then each listed implementation whose folder
// holds a saved matrix.json, with the reasons of its expect.yaml.
func implementationRows(ref *report.Matrix, mf *matrix.File) ([]report.ImplementationRow, error) {
	rows := []report.ImplementationRow{{Run: "replaycheck run", Matrix: ref}}
	b, err := os.ReadFile(implementationsList)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#") || strings.TrimSpace(text) == "" {
			continue
		}
		dir, cmd, ok := strings.Cut(text, "\t")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want a folder, a tab and a command", implementationsList, line)
		}
		saved := filepath.Join(dir, "matrix.json")
		f, err := os.Open(saved)
		if errors.Is(err, fs.ErrNotExist) {
			continue // not present in this checkout
		}
		if err != nil {
			return nil, err
		}
		m, err := report.ReadJSON(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", saved, err)
		}
		row := report.ImplementationRow{Path: dir, Run: "replaycheck run --engine \"" + cmd + "\"", Matrix: m}
		expect := filepath.Join(dir, "expect.yaml")
		if eb, err := os.ReadFile(expect); err == nil {
			e, err := matrix.ParseExpectations(filepath.Join(dir, "expect.yaml"), eb, mf)
			if err != nil {
				return nil, err
			}
			row.Run += " --expect " + filepath.Join(dir, "expect.yaml")
			row.Reasons = map[string]string{}
			for _, k := range append(append([]matrix.KnownFailure(nil), e.KnownFailures...), e.Advisories...) {
				row.Reasons[k.Target+"/"+k.Scenario] = k.Reason
			}
		}
		rows = append(rows, row)
	}
	return rows, sc.Err()
}

// writeImplementations writes implementations.md and implementations.html
// into dir.
func writeImplementations(dir string, ref *report.Matrix, mf *matrix.File) error {
	rows, err := implementationRows(ref, mf)
	if err != nil {
		return err
	}
	var md, page bytes.Buffer
	if err := report.WriteImplementationsMarkdown(&md, rows); err != nil {
		return err
	}
	if err := report.WriteImplementationsHTML(&page, rows); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "implementations.md"), md.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "implementations.html"), page.Bytes(), 0o644)
}
