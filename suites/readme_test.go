package suites_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/report"
)

// TestREADMEFigures: the figures the README quotes from the committed
// reports (the badge's message and the quality curve's compactions) are
// the reports' own, so a regenerated report that moves them turns this red
// until the README says the same.
func TestREADMEFigures(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var badge struct{ Message string }
	data, err := os.ReadFile(filepath.Join("..", "reports", "badges", "matrix.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &badge); err != nil {
		t.Fatalf("reports/badges/matrix.json: %v", err)
	}
	data, err = os.ReadFile(filepath.Join("..", committedMatrix))
	if err != nil {
		t.Fatal(err)
	}
	m, err := report.ReadJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", committedMatrix, err)
	}
	if m.Curve == nil {
		t.Fatalf("%s holds no quality curve", committedMatrix)
	}
	charted, compactions := 0, 0
	for _, c := range m.Curve.Targets {
		if c.Reads == report.ReadsPrior {
			charted++
			compactions += len(c.Reference.Compactions)
		}
	}
	text := strings.Join(strings.Fields(string(readme)), " ")
	for _, want := range []string{
		fmt.Sprintf(`("%s": pass and advisory over the judged cells)`, badge.Message),
		fmt.Sprintf("right after each of %d compactions on the %d targets whose provider reads earlier reasoning", compactions, charted),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md does not say %q, which the committed reports do", want)
		}
	}
}
