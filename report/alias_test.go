package report

import (
	"bytes"
	"strings"
	"testing"
)

// withAliases is the sample matrix with one alias of deepseek: a proxy's
// route whose missing-echo cell is advisory.
func withAliases() *Matrix {
	m := sampleMatrix()
	row := AliasRow{Name: "deepseek~1", Target: "deepseek", Route: "chat (llm-proxy, https://llm-proxy.example.com/deepseek/v1, deepseek-v4-flash)", Note: "a proxy's own provider id"}
	for _, sc := range m.Scenarios {
		c := Cell{Target: "deepseek~1", Scenario: sc, Status: StatusPass, Provenance: ProvenanceSimulated}
		if sc == "missing-echo" {
			c.Status, c.Detail = StatusAdvisory, "the route sends less than the provider reads"
		}
		row.Cells = append(row.Cells, c)
	}
	m.Aliases = []AliasRow{row}
	return m
}

// TestAliasRows: alias rows travel through every format: JSON reads back,
// the Markdown and the page show each alias's row with its route and link
// what needs attention, the table counts them.
func TestAliasRows(t *testing.T) {
	m := withAliases()
	var js bytes.Buffer
	if err := WriteJSON(&js, m); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(&js)
	if err != nil {
		t.Fatalf("matrix.json with aliases does not read back: %v", err)
	}
	if len(back.Aliases) != 1 || len(back.Aliases[0].Cells) != len(m.Scenarios) || back.Aliases[0].Note == "" {
		t.Errorf("aliases read back as %+v", back.Aliases)
	}
	var md, page, table bytes.Buffer
	if err := WriteMarkdown(&md, m); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Aliases", "1 alias × 4 scenarios: 3 pass, 0 fail", "| `deepseek~1` | chat (llm-proxy, https://llm-proxy.example.com/deepseek/v1, deepseek-v4-flash) |", "[advisory (sim)](#detail-deepseek~1-missing-echo)"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("matrix.md lacks %q", want)
		}
	}
	if err := WriteHTML(&page, m); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<section id="aliases">`, `title="chat (llm-proxy, https://llm-proxy.example.com/deepseek/v1, deepseek-v4-flash): a proxy&#39;s own provider id">deepseek~1</th>`, `id="detail-deepseek~1-missing-echo"`} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("matrix.html lacks %q", want)
		}
	}
	if _, err := parseXHTML(page.String()); err != nil {
		t.Errorf("matrix.html with aliases is not well-formed: %v", err)
	}
	if err := WriteTable(&table, m, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "1 alias × 4 scenarios: 3 pass") || !strings.Contains(table.String(), "deepseek~1/missing-echo: advisory") {
		t.Errorf("the table does not count the alias or name its cell:\n%s", table.String())
	}
}

// TestAliasRowsValidate: an alias row names a target, is named after it and
// has one cell per scenario carrying its name.
func TestAliasRowsValidate(t *testing.T) {
	for _, tc := range []struct {
		edit func(*AliasRow)
		want string
	}{
		{func(a *AliasRow) { a.Target = "nope" }, `aliases[0].target: "nope" is not a target of the matrix`},
		{func(a *AliasRow) { a.Name = "mistral~1" }, `aliases[0].name: "mistral~1" is not named after its target`},
		{func(a *AliasRow) { a.Cells = a.Cells[1:] }, "aliases[0].cells: 3 cells, want one per scenario (4)"},
		{func(a *AliasRow) { a.Cells[2].Target = "deepseek" }, "aliases[0].cells[2]: deepseek/strict-schema"},
	} {
		m := withAliases()
		tc.edit(&m.Aliases[0])
		if err := m.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}
