// Checks on the suite's own layout and on the helpers behind its report.
package suites_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// TestOneFilePerScenario checks that every scenario has its file (the name
// without "-", plus _test.go) declaring its table, that the file's package
// comment quotes the scenario's requirement word for word, and that no
// table is declared twice or for an unknown scenario.
func TestOneFilePerScenario(t *testing.T) {
	tables := regexp.MustCompile(`scenarioTable\("([^"]*)"\)`)
	declared := map[string][]string{}
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tables.FindAllStringSubmatch(string(src), -1) {
			declared[m[1]] = append(declared[m[1]], file)
		}
	}
	for _, sc := range scenario.All() {
		file := strings.ReplaceAll(sc.Name, "-", "") + "_test.go"
		if got := declared[sc.Name]; len(got) != 1 || got[0] != file {
			t.Errorf("%s: table declared in %v, want exactly once, in %s", sc.Name, got, file)
		}
		delete(declared, sc.Name)
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			t.Errorf("%s: %v", sc.Name, err)
			continue
		}
		if f.Doc == nil {
			t.Errorf("%s: no package comment", file)
			continue
		}
		doc := strings.Join(strings.Fields(f.Doc.Text()), " ")
		if want := `"` + sc.Requirement + `"`; !strings.Contains(doc, want) {
			t.Errorf("%s: package comment does not quote the requirement %s:\n%s", file, want, doc)
		}
	}
	for name, where := range declared {
		t.Errorf("table %q in %v names no scenario", name, where)
	}
}

// TestCompareCommitted checks the staleness check against a committed
// matrix.json.
func TestCompareCommitted(t *testing.T) {
	base := func() *report.Matrix {
		return &report.Matrix{
			Targets:   []string{"deepseek", "mistral"},
			Scenarios: []string{"carriers", "missing-echo"},
			Cells: []report.Cell{
				{Target: "deepseek", Scenario: "carriers", Status: report.StatusPass, Provenance: report.ProvenanceSimulated},
				{Target: "deepseek", Scenario: "missing-echo", Status: report.StatusPass, Provenance: report.ProvenanceSimulated},
				{Target: "mistral", Scenario: "carriers", Status: report.StatusPass, Provenance: report.ProvenanceRecorded, Recorded: "cassettes/mistral/carriers.yaml"},
				{Target: "mistral", Scenario: "missing-echo", Status: report.StatusNA, Detail: "no must-echo rule"},
			},
		}
	}
	committed := filepath.Join(t.TempDir(), "matrix.json")
	var b strings.Builder
	if err := report.WriteJSON(&b, base()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(committed, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		reason   string
		change   func(m *report.Matrix) *report.Matrix
		complete bool
		path     string
		want     string // "" for no error
	}{
		{"the same matrix agrees", func(m *report.Matrix) *report.Matrix { return m }, true, committed, ""},
		{"a changed status is stale and named", func(m *report.Matrix) *report.Matrix {
			m.Cells[2].Status, m.Cells[2].Detail = report.StatusFail, "refused"
			return m
		}, true, committed, "mistral/carriers: committed pass (rec), now FAIL (rec)"},
		{"a changed detail is stale", func(m *report.Matrix) *report.Matrix {
			m.Cells[3].Detail = "other"
			return m
		}, true, committed, `mistral/missing-echo: n/a, with a different detail (now "other")`},
		{"a partial run compares only the cells that ran", func(m *report.Matrix) *report.Matrix {
			m.Cells = m.Cells[:1]
			return m
		}, false, committed, ""},
		{"a partial run still catches a changed cell", func(m *report.Matrix) *report.Matrix {
			m.Cells = m.Cells[:1]
			m.Cells[0].Provenance = report.ProvenanceRecorded
			return m
		}, false, committed, "deepseek/carriers: committed pass (sim), now pass (rec)"},
		{"a new target is stale", func(m *report.Matrix) *report.Matrix {
			m.Targets = append(m.Targets, "kimi")
			m.Cells = append(m.Cells,
				report.Cell{Target: "kimi", Scenario: "carriers", Status: report.StatusNA},
				report.Cell{Target: "kimi", Scenario: "missing-echo", Status: report.StatusNA})
			return m
		}, true, committed, "it lists targets [deepseek mistral]"},
		{"no committed matrix, nothing to compare", func(m *report.Matrix) *report.Matrix {
			m.Cells[0].Status = report.StatusFail
			return m
		}, true, filepath.Join(t.TempDir(), "absent.json"), ""},
	}
	for _, tt := range tests {
		err := compareCommitted(tt.path, tt.change(base()), tt.complete)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: unexpected error: %v", tt.reason, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one containing %q", tt.reason, err, tt.want)
		case tt.want != "" && !strings.Contains(err.Error(), "make reports"):
			t.Errorf("%s: error %v does not say how to regenerate", tt.reason, err)
		}
	}
}

// TestCellMessage checks how a cell that did not pass reads in a spec's
// failure or skip message.
func TestCellMessage(t *testing.T) {
	tests := []struct {
		reason string
		cell   report.Cell
		want   string
	}{
		{"a refusal lists every field, multi-line values indented",
			report.Cell{Target: "mistral", Scenario: "carriers", Status: report.StatusFail, Detail: "the provider refused the request (422)",
				Expected: "the request accepted", Actual: "refused with 422", ProviderError: "{\n\"detail\": \"Extra inputs\"\n}",
				Cassette: "cassettes/mistral/carriers.yaml"},
			"mistral/carriers: the provider refused the request (422)\n" +
				"  expected: the request accepted\n" +
				"  actual: refused with 422\n" +
				"  provider error: {\n    \"detail\": \"Extra inputs\"\n    }\n" +
				"  cassette: cassettes/mistral/carriers.yaml"},
		{"empty fields are left out",
			report.Cell{Target: "deepseek", Scenario: "resume", Status: report.StatusUnverified, Detail: "no cassette",
				Expected: "nearest recorded interaction is 2; request differs at:\n$.messages[1].reasoning_content: \" \" ≠ absent"},
			"deepseek/resume: no cassette\n" +
				"  expected: nearest recorded interaction is 2; request differs at:\n    $.messages[1].reasoning_content: \" \" ≠ absent"},
	}
	for _, tt := range tests {
		if got := cellMessage(tt.cell); got != tt.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", tt.reason, got, tt.want)
		}
	}
}
