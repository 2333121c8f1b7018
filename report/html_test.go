package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// renderHTML renders m and parses the page strictly.
func renderHTML(t *testing.T, m *Matrix) *hnode {
	t.Helper()
	var out bytes.Buffer
	if err := WriteHTML(&out, m); err != nil {
		t.Fatalf("WriteHTML: %v", err)
	}
	root, err := parseXHTML(out.String())
	if err != nil {
		t.Fatalf("the page is not well-formed: %v", err)
	}
	return root
}

// gridOf returns the page's grid section.
func gridOf(t *testing.T, root *hnode) *hnode {
	t.Helper()
	grids := root.find(func(n *hnode) bool { return n.tag == "section" && n.attrs["id"] == "grid" })
	if len(grids) != 1 {
		t.Fatalf("%d grid sections, want 1", len(grids))
	}
	return grids[0]
}

// TestHTMLGrid checks the grid against the matrix: one <td> per target × scenario with the
// right data attributes, class and provenance marker.
func TestHTMLGrid(t *testing.T) {
	m := sampleMatrix()
	root := renderHTML(t, m)
	tds := gridOf(t, root).find(func(n *hnode) bool { return n.tag == "td" })
	seen := map[string]int{}
	for _, td := range tds {
		target, scenario, status := td.attrs["data-target"], td.attrs["data-scenario"], td.attrs["data-status"]
		id := target + "/" + scenario
		seen[id]++
		c, ok := m.Cell(target, scenario)
		if !ok {
			t.Errorf("<td> for %s, which is not a cell of the matrix", id)
			continue
		}
		if status != string(c.Status) {
			t.Errorf("%s: data-status %q, want %q", id, status, c.Status)
		}
		if !slices.Contains(strings.Fields(td.attrs["class"]), "st-"+statusClass(c.Status)) {
			t.Errorf("%s: class %q lacks the status colour st-%s", id, td.attrs["class"], statusClass(c.Status))
		}
		markers := td.find(func(n *hnode) bool { return slices.Contains(strings.Fields(n.attrs["class"]), "prov") })
		want := gridMarker(c.Provenance)
		switch {
		case want == "" && len(markers) != 0:
			t.Errorf("%s: has a provenance marker but no provenance", id)
		case want != "" && (len(markers) != 1 || markers[0].textContent() != want || markers[0].attrs["title"] != c.Provenance):
			t.Errorf("%s: provenance %s must show as %q titled %q, got %d markers", id, c.Provenance, want, c.Provenance, len(markers))
		}
	}
	for _, target := range m.Targets {
		for _, scenario := range m.Scenarios {
			if n := seen[target+"/"+scenario]; n != 1 {
				t.Errorf("%s/%s: %d grid cells, want exactly 1", target, scenario, n)
			}
		}
	}
	if len(tds) != len(m.Targets)*len(m.Scenarios) {
		t.Errorf("%d <td> elements, want %d", len(tds), len(m.Targets)*len(m.Scenarios))
	}
}

// TestHTMLLinks checks that every cell that is not pass (n/a only when it has a detail) links
// to a details entry that exists and shows the cell's fields, and that no link leaves the page.
func TestHTMLLinks(t *testing.T) {
	m := sampleMatrix()
	root := renderHTML(t, m)
	ids := map[string]*hnode{}
	var dup []string
	root.walk(func(n *hnode) {
		if id, ok := n.attrs["id"]; ok {
			if ids[id] != nil {
				dup = append(dup, id)
			}
			ids[id] = n
		}
	})
	if len(dup) > 0 {
		t.Errorf("duplicate ids: %v", dup)
	}
	for _, a := range root.find(func(n *hnode) bool { _, ok := n.attrs["href"]; return ok }) {
		href := a.attrs["href"]
		if !strings.HasPrefix(href, "#") || ids[href[1:]] == nil {
			t.Errorf("href %q does not point to an element of the page", href)
		}
	}
	for _, td := range gridOf(t, root).find(func(n *hnode) bool { return n.tag == "td" }) {
		c, _ := m.Cell(td.attrs["data-target"], td.attrs["data-scenario"])
		links := td.find(func(n *hnode) bool { return n.tag == "a" })
		mustLink := c.Status != StatusPass && (c.Status != StatusNA || c.Detail != "")
		if !mustLink {
			if len(links) != 0 {
				t.Errorf("%s: a %s cell without detail links to %q", c.ID(), c.Status, links[0].attrs["href"])
			}
			continue
		}
		if len(links) != 1 || links[0].attrs["href"] != "#"+c.Anchor() {
			t.Errorf("%s: a %s cell must link to #%s, got %d links", c.ID(), c.Status, c.Anchor(), len(links))
			continue
		}
		entry := ids[c.Anchor()]
		if entry == nil {
			t.Errorf("%s: no element with id %s", c.ID(), c.Anchor())
			continue
		}
		text := entry.textContent()
		for name, want := range map[string]string{
			"detail": paragraph(c.Detail), "expected": lines(c.Expected), "actual": lines(c.Actual), "cassette": c.Cassette,
		} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: details entry lacks the %s %q", c.ID(), name, want)
			}
		}
		pres := entry.find(func(n *hnode) bool { return n.tag == "pre" })
		switch {
		case c.ProviderError == "" && len(pres) != 0:
			t.Errorf("%s: a <pre> but no provider error", c.ID())
		case c.ProviderError != "" && (len(pres) != 1 || pres[0].textContent() != lines(c.ProviderError)):
			t.Errorf("%s: the provider error must appear verbatim in one <pre>", c.ID())
		}
	}
}

// TestHTMLSelfContained checks that the page needs nothing from the network: no scripts,
// stylesheet links, images, frames or fonts, and no attribute pointing at another host.
func TestHTMLSelfContained(t *testing.T) {
	root := renderHTML(t, sampleMatrix())
	banned := []string{"script", "link", "img", "iframe", "object", "embed", "base", "audio", "video", "source", "picture"}
	root.walk(func(n *hnode) {
		if slices.Contains(banned, n.tag) {
			t.Errorf("offset %d: <%s> element", n.offset, n.tag)
		}
		for name, value := range n.attrs {
			if name == "src" || name == "srcset" || strings.HasPrefix(name, "on") {
				t.Errorf("offset %d: <%s %s=%q>", n.offset, n.tag, name, value)
			}
			v := strings.ToLower(strings.TrimSpace(value))
			if strings.HasPrefix(v, "http:") || strings.HasPrefix(v, "https:") || strings.HasPrefix(v, "//") ||
				strings.HasPrefix(v, "javascript:") {
				t.Errorf("offset %d: <%s %s=%q> points off the page", n.offset, n.tag, name, value)
			}
		}
	})
	styles := root.find(func(n *hnode) bool { return n.tag == "style" })
	if len(styles) != 1 {
		t.Fatalf("%d <style> elements, want one inline stylesheet", len(styles))
	}
	css := styles[0].textContent()
	for _, s := range []string{"url(", "@import", "@font-face"} {
		if strings.Contains(css, s) {
			t.Errorf("the stylesheet uses %s, which may load from the network", s)
		}
	}
	for _, want := range []string{"position: sticky", "--mono"} {
		if !strings.Contains(css, want) {
			t.Errorf("the stylesheet lacks %q (sticky header, monospace ids)", want)
		}
	}
}

// TestHTMLEscapes checks that text from providers cannot inject markup: a provider error
// holding <script> is shown as text, and ids with dots or underscores still link.
func TestHTMLEscapes(t *testing.T) {
	m := &Matrix{
		Targets:   []string{"gemini-2.5_pro"},
		Scenarios: []string{"carriers"},
		Cells: []Cell{{Target: "gemini-2.5_pro", Scenario: "carriers", Status: StatusFail, Provenance: ProvenanceRecorded, Recorded: "cassettes/gemini-2.5_pro/carriers.yaml",
			Detail:        `refused "<b>bold</b>" & more`,
			ProviderError: `</pre><script>alert(1)</script><a href="https://example.invalid/">x</a>`}},
	}
	root := renderHTML(t, m)
	injected := root.find(func(n *hnode) bool {
		return n.tag == "script" || n.tag == "b" && n.textContent() == "bold" || n.attrs["href"] == "https://example.invalid/"
	})
	for _, n := range injected {
		t.Errorf("offset %d: provider text produced a <%s> element", n.offset, n.tag)
	}
	paras := root.find(func(n *hnode) bool { return n.tag == "p" && n.textContent() == m.Cells[0].Detail })
	if len(paras) != 1 {
		t.Errorf("the detail must be shown as text in one <p>, found %d", len(paras))
	}
	pres := root.find(func(n *hnode) bool { return n.tag == "pre" })
	if len(pres) != 1 || pres[0].textContent() != m.Cells[0].ProviderError {
		t.Errorf("the provider error must be shown verbatim as text, got %d <pre>", len(pres))
	}
	links := root.find(func(n *hnode) bool { return n.attrs["href"] == "#detail-gemini-2.5_pro-carriers" })
	if len(links) != 1 {
		t.Errorf("the cell must link to #detail-gemini-2.5_pro-carriers, found %d links", len(links))
	}
}

// TestHTMLPutsAttentionFirst: the details open with what needs attention
// (fail, error, unverified, advisory, known-fail) before passes, the n/a
// cells are folded away with their reasons, and a status nobody has is a
// muted pill, not a red one.
func TestHTMLPutsAttentionFirst(t *testing.T) {
	var b bytes.Buffer
	if err := WriteHTML(&b, sampleMatrix()); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	details := page[strings.Index(page, `<section id="details">`):]
	var order []string
	for _, part := range strings.Split(details, `<article class="detail st-`)[1:] {
		order = append(order, part[:strings.Index(part, `"`)])
	}
	rank := map[string]int{"fail": 0, "error": 1, "unverified": 2, "advisory": 3, "known-fail": 4, "pass": 5, "na": 6}
	for i := 1; i < len(order); i++ {
		if rank[order[i]] < rank[order[i-1]] {
			t.Fatalf("details in the order %v: what needs attention must come first", order)
		}
	}
	fold := strings.Index(details, `<details class="folded">`)
	if fold < 0 || strings.Contains(details[:fold], `class="detail st-na"`) || !strings.Contains(details[fold:], `class="detail st-na"`) {
		t.Error("the n/a cells are not folded away below the rest")
	}
	m := sampleMatrix()
	for i := range m.Cells {
		if m.Cells[i].Status == StatusError {
			m.Cells[i].Status, m.Cells[i].Provenance = StatusFail, ProvenanceSimulated
		}
	}
	b.Reset()
	if err := WriteHTML(&b, m); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `<li class="zero"><b>0</b> error</li>`) {
		t.Error("a status with no cell is not a muted pill")
	}
}
