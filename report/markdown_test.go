package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

var (
	mdLink   = regexp.MustCompile(`\]\(#([^)]+)\)`)
	mdAnchor = regexp.MustCompile(`<a id="([^"]+)"></a>`)
)

// TestMarkdownLinks checks that every grid link has its anchor, and that exactly the cells
// that are neither pass nor n/a get one.
func TestMarkdownLinks(t *testing.T) {
	m := sampleMatrix()
	var out bytes.Buffer
	if err := WriteMarkdown(&out, m); err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	for _, a := range mdAnchor.FindAllStringSubmatch(out.String(), -1) {
		anchors[a[1]] = true
	}
	links := map[string]bool{}
	for _, l := range mdLink.FindAllStringSubmatch(out.String(), -1) {
		links[l[1]] = true
		if !anchors[l[1]] {
			t.Errorf("link #%s has no anchor", l[1])
		}
	}
	for _, c := range m.Cells {
		want := c.Status != StatusPass && c.Status != StatusNA
		if links[c.Anchor()] != want || anchors[c.Anchor()] != want {
			t.Errorf("%s (%s): linked %v, anchored %v, want %v", c.ID(), c.Status, links[c.Anchor()], anchors[c.Anchor()], want)
		}
	}
}

// TestMarkdownGridRows checks that the grid has a row per target with a column per scenario.
func TestMarkdownGridRows(t *testing.T) {
	m := sampleMatrix()
	var out bytes.Buffer
	if err := WriteMarkdown(&out, m); err != nil {
		t.Fatal(err)
	}
	grid := out.String()
	grid = grid[strings.Index(grid, "## Grid"):strings.Index(grid, "## Details")]
	for _, target := range m.Targets {
		prefix := "| `" + target + "` |"
		var row string
		for line := range strings.SplitSeq(grid, "\n") {
			if strings.HasPrefix(line, prefix) {
				row = line
			}
		}
		if got := strings.Count(row, " |"); got != len(m.Scenarios)+1 {
			t.Errorf("row %s has %d columns, want %d: %q", target, got, len(m.Scenarios)+1, row)
		}
	}
}

func TestMarkdownNoDetails(t *testing.T) {
	m := &Matrix{Targets: []string{"a"}, Scenarios: []string{"x", "y"}, Cells: []Cell{
		{Target: "a", Scenario: "x", Status: StatusPass, Provenance: ProvenanceSimulated},
		{Target: "a", Scenario: "y", Status: StatusNA, Detail: "does not apply"},
	}}
	var out bytes.Buffer
	if err := WriteMarkdown(&out, m); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(out.String(), "## Details\n\nEvery cell passed or does not apply.\n") {
		t.Errorf("a matrix with nothing to explain must say so, got:\n%s", out.String())
	}
}
