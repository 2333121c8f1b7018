package providers

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated table in README.md")

const (
	tableBegin = "<!-- BEGIN GENERATED TABLE: go test ./providers -run TestREADMETable -update -->\n"
	tableEnd   = "<!-- END GENERATED TABLE -->\n"
)

// readmeTable renders, per profile, which rules are confirmed by a cited
// source and which are partial or assumed.
func readmeTable(ps []*Profile) string {
	var b strings.Builder
	b.WriteString("| provider | api mode | profile | confirmed rules | partial rules | assumed rules (unconfirmed) | flags |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, p := range ps {
		cells := map[string][]string{}
		for _, r := range p.Rules {
			cells[r.Confidence] = append(cells[r.Confidence], fmt.Sprintf("`%s` %d", r.ID, r.Status))
		}
		var flags []string
		for _, f := range p.Flags {
			flags = append(flags, fmt.Sprintf("`%s: %v`", f.Path, f.Value))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", p.Name, p.APIMode, p.Confidence,
			cell(cells[ConfidenceConfirmed]), cell(cells[ConfidencePartial]), cell(cells[ConfidenceUnconfirmed]), cell(flags))
	}
	return b.String()
}

func cell(items []string) string {
	if len(items) == 0 {
		return "—"
	}
	return strings.Join(items, "<br>")
}

func TestREADMETable(t *testing.T) {
	ps, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i, j := strings.Index(text, tableBegin), strings.Index(text, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the generated-table markers")
	}
	want := readmeTable(ps)
	got := text[i+len(tableBegin) : j]
	if got == want {
		return
	}
	if *update {
		text = text[:i+len(tableBegin)] + want + text[j:]
		if err := os.WriteFile("README.md", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md table is stale; run go test ./providers -run TestREADMETable -update\nwant:\n%s", want)
}
