package main

import (
	"fmt"
	"html"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// A pageNode is an element, or a text node (tag ""), of a page read by
// parsePage.
type pageNode struct {
	tag   string
	attrs map[string]string
	text  string
	kids  []*pageNode
}

// all returns n and every element below it, in document order.
func (n *pageNode) all() []*pageNode {
	if n.tag == "" {
		return nil
	}
	out := []*pageNode{n}
	for _, k := range n.kids {
		out = append(out, k.all()...)
	}
	return out
}

// content returns the text of n and its descendants with white space runs
// collapsed to one space.
func (n *pageNode) content() string {
	var b strings.Builder
	var walk func(*pageNode)
	walk = func(n *pageNode) {
		if n.tag == "" {
			b.WriteString(n.text)
			b.WriteByte(' ')
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(n)
	return squash(b.String())
}

// squash collapses white space runs to one space and trims the ends.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// Elements a strict page self-closes, and those whose content is raw text.
var (
	pageVoid    = []string{"meta", "link", "br", "hr", "img", "input", "wbr", "base", "source"}
	pageRawText = []string{"style", "script"}
)

// parsePage reads src as strictly as the report package's own page test
// does: an optional "<!DOCTYPE html>", then exactly one root element;
// lowercase names; attributes written name="value", once each; void
// elements self-closed and no other; every end tag closing the innermost
// open element; "&" only in XML or numeric character references; comments
// allowed.
func parsePage(src string) (*pageNode, error) {
	pos := len(src) - len(strings.TrimPrefix(src, "<!DOCTYPE html>"))
	fail := func(format string, args ...any) (*pageNode, error) {
		return nil, fmt.Errorf("offset %d: %s", pos, fmt.Sprintf(format, args...))
	}
	doc := &pageNode{tag: "#document"}
	stack := []*pageNode{doc}
	for pos < len(src) {
		top := stack[len(stack)-1]
		rest := src[pos:]
		switch {
		case strings.HasPrefix(rest, "<!--"):
			end := strings.Index(rest, "-->")
			if end < 0 {
				return fail("unterminated comment")
			}
			pos += end + 3
		case strings.HasPrefix(rest, "</"):
			name := pageName(rest[2:])
			if !strings.HasPrefix(rest[2+len(name):], ">") || name == "" {
				return fail("malformed end tag")
			}
			if name != top.tag {
				return fail("</%s> closes <%s>", name, top.tag)
			}
			stack = stack[:len(stack)-1]
			pos += 3 + len(name)
		case rest[0] == '<':
			el, n, selfClosed, err := pageStartTag(rest)
			if err != nil {
				return fail("%v", err)
			}
			pos += n
			if top == doc && len(doc.kids) > 0 {
				return fail("a second root element <%s>", el.tag)
			}
			top.kids = append(top.kids, el)
			void := slices.Contains(pageVoid, el.tag)
			switch {
			case void != selfClosed:
				return fail("<%s>: void %v but self-closed %v", el.tag, void, selfClosed)
			case void:
			case slices.Contains(pageRawText, el.tag):
				end := strings.Index(src[pos:], "</"+el.tag+">")
				if end < 0 {
					return fail("<%s> is never closed", el.tag)
				}
				el.kids = append(el.kids, &pageNode{text: src[pos : pos+end]})
				pos += end + len("</"+el.tag+">")
			default:
				stack = append(stack, el)
			}
		default:
			end := strings.IndexByte(rest, '<')
			if end < 0 {
				end = len(rest)
			}
			text, err := pageUnescape(rest[:end])
			if err != nil {
				return fail("%v", err)
			}
			pos += end
			if top == doc {
				if strings.TrimSpace(text) != "" {
					return fail("text outside the root element")
				}
				continue
			}
			top.kids = append(top.kids, &pageNode{text: text})
		}
	}
	if len(stack) > 1 {
		return fail("<%s> is never closed", stack[len(stack)-1].tag)
	}
	if len(doc.kids) != 1 {
		return fail("no root element")
	}
	return doc.kids[0], nil
}

// pageName returns the lowercase name at the start of s.
func pageName(s string) string {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || i > 0 && (s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9' || s[i] == '-')) {
		i++
	}
	return s[:i]
}

// pageStartTag reads the start tag at the start of s and returns the
// element, the bytes read and whether the tag self-closes.
func pageStartTag(s string) (*pageNode, int, bool, error) {
	el := &pageNode{tag: pageName(s[1:]), attrs: map[string]string{}}
	if el.tag == "" {
		return nil, 0, false, fmt.Errorf("a stray < or an upper-case tag name")
	}
	i := 1 + len(el.tag)
	for {
		spaced := i < len(s) && strings.IndexByte(" \t\n", s[i]) >= 0
		for i < len(s) && strings.IndexByte(" \t\n", s[i]) >= 0 {
			i++
		}
		switch {
		case strings.HasPrefix(s[i:], "/>"):
			return el, i + 2, true, nil
		case strings.HasPrefix(s[i:], ">"):
			return el, i + 1, false, nil
		case !spaced:
			return nil, 0, false, fmt.Errorf("<%s>: attributes must be separated by white space", el.tag)
		}
		name := pageName(s[i:])
		i += len(name)
		if name == "" || !strings.HasPrefix(s[i:], `="`) {
			return nil, 0, false, fmt.Errorf("<%s>: an attribute not written name=\"value\"", el.tag)
		}
		i += 2
		end := strings.IndexByte(s[i:], '"')
		if end < 0 || strings.ContainsRune(s[i:i+end], '<') {
			return nil, 0, false, fmt.Errorf("<%s>: attribute %s is not closed, or holds a raw <", el.tag, name)
		}
		value, err := pageUnescape(s[i : i+end])
		if err != nil {
			return nil, 0, false, err
		}
		if _, dup := el.attrs[name]; dup {
			return nil, 0, false, fmt.Errorf("<%s>: attribute %s given twice", el.tag, name)
		}
		el.attrs[name] = value
		i += end + 1
	}
}

// pageUnescape decodes raw text, refusing any "&" that does not start an
// XML entity or a numeric character reference.
func pageUnescape(raw string) (string, error) {
	for i := strings.IndexByte(raw, '&'); i >= 0; i = nextAmp(raw, i) {
		end := strings.IndexByte(raw[i:], ';')
		if end < 0 {
			return "", fmt.Errorf("a bare & in %q", raw)
		}
		ref := raw[i+1 : i+end]
		ok := slices.Contains([]string{"amp", "lt", "gt", "quot", "apos"}, ref) ||
			len(ref) > 1 && ref[0] == '#' && strings.Trim(ref[1:], "0123456789") == "" ||
			len(ref) > 2 && ref[:2] == "#x" && strings.Trim(ref[2:], "0123456789abcdefABCDEF") == ""
		if !ok {
			return "", fmt.Errorf("unknown entity &%s;", ref)
		}
	}
	return html.UnescapeString(raw), nil
}

// nextAmp returns the index of the next "&" after i, or -1.
func nextAmp(s string, i int) int {
	j := strings.IndexByte(s[i+1:], '&')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// Elements and attributes that would make a browser fetch something.
var (
	fetchingElements = []string{"script", "link", "img", "iframe", "object", "embed", "source", "audio", "video", "base", "form", "track", "picture"}
	// svgElements are all an inline chart may hold: shapes and text, never
	// <use>, <image>, <foreignObject>, <script> or links.
	svgElements        = []string{"svg", "title", "text", "line", "polyline"}
	fetchingAttributes = []string{"src", "srcset", "action", "formaction", "poster", "background", "data", "ping", "manifest"}
	fetchingCSS        = []string{"url(", "@import", "@font-face", "image-set("}
)

// pageProblems checks a matrix page against its matrix: it is well formed;
// it needs no network (inline CSS, nothing fetched, no script, every link
// within the page); it has one grid cell per target × scenario with the
// cell's status; every cell that did not pass links to a details entry
// that exists and gives the cell's detail, expected and actual behaviour,
// provider error and cassette.
func pageProblems(page string, m *report.Matrix) []string {
	root, err := parsePage(page)
	if err != nil {
		return []string{"the page is not well formed: " + err.Error()}
	}
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	elements := root.all()
	ids := map[string]*pageNode{}
	styles := 0
	for _, el := range elements {
		if slices.Contains(fetchingElements, el.tag) {
			add("<%s> fetches or runs something", el.tag)
		}
		if el.tag == "svg" {
			for _, in := range el.all() {
				if !slices.Contains(svgElements, in.tag) {
					add("<svg> holds <%s>, which is not a plain shape or text", in.tag)
				}
				if in.attrs["href"] != "" || in.attrs["xlink:href"] != "" {
					add("<svg> links out from <%s>", in.tag)
				}
			}
		}
		if el.tag == "meta" && el.attrs["http-equiv"] != "" {
			add("<meta http-equiv=%q>", el.attrs["http-equiv"])
		}
		css := el.attrs["style"]
		if el.tag == "style" {
			styles++
			css = el.content()
		}
		for _, bad := range fetchingCSS {
			if strings.Contains(strings.ToLower(css), bad) {
				add("<%s>: CSS with %s fetches something", el.tag, bad)
			}
		}
		for name, value := range el.attrs {
			if slices.Contains(fetchingAttributes, name) || strings.HasPrefix(name, "on") {
				add("<%s %s=%q> fetches or runs something", el.tag, name, value)
			}
			if name == "id" {
				if ids[value] != nil {
					add("id %q given twice", value)
				}
				ids[value] = el
			}
		}
	}
	if styles == 0 {
		add("no inline <style>: the page would render unstyled")
	}
	for _, el := range elements {
		if href, ok := el.attrs["href"]; ok && (!strings.HasPrefix(href, "#") || ids[href[1:]] == nil) {
			add("<%s href=%q> does not point into the page", el.tag, href)
		}
	}
	grid := map[string]*pageNode{}
	for _, el := range elements {
		if el.tag != "td" || el.attrs["data-target"] == "" {
			continue // not a grid cell (the evidence tables)
		}
		id := el.attrs["data-target"] + "/" + el.attrs["data-scenario"]
		if grid[id] != nil {
			add("%s: two grid cells", id)
		}
		grid[id] = el
	}
	// The alias rows are a grid of their own: one cell per alias ×
	// scenario, an n/a cell carrying its reason in its title, no card.
	aliasCells := m.AliasCells()
	if len(grid) != len(m.Targets)*len(m.Scenarios)+len(aliasCells) {
		add("%d grid cells, want %d targets × %d scenarios and %d alias cells", len(grid), len(m.Targets), len(m.Scenarios), len(aliasCells))
	}
	for _, c := range append(slices.Clone(m.Cells), aliasCells...) {
		td := grid[c.ID()]
		switch {
		case td == nil:
			add("%s: no grid cell", c.ID())
			continue
		case td.attrs["data-status"] != string(c.Status):
			add("%s: data-status %q, want %q", c.ID(), td.attrs["data-status"], c.Status)
		}
		if c.Status == report.StatusPass || (c.Status == report.StatusNA && strings.Contains(c.Target, "~")) {
			continue
		}
		var links []string
		for _, a := range td.all() {
			if a.tag == "a" {
				links = append(links, a.attrs["href"])
			}
		}
		if !slices.Equal(links, []string{"#" + c.Anchor()}) {
			add("%s: a %s cell links to %v, want its detail #%s", c.ID(), c.Status, links, c.Anchor())
			continue
		}
		entry := ids[c.Anchor()]
		if entry == nil {
			continue // reported with the hrefs
		}
		text := entry.content()
		for _, f := range []struct{ name, value string }{
			{"detail", c.Detail}, {"expected", c.Expected}, {"actual", c.Actual},
			{"provider error", c.ProviderError}, {"cassette", c.Cassette},
		} {
			if !strings.Contains(text, squash(f.value)) {
				add("%s: the detail entry lacks the %s %q", c.ID(), f.name, f.value)
			}
		}
	}
	return problems
}

// checkMatrixPage fails t with every problem pageProblems finds.
func checkMatrixPage(t *testing.T, page string, m *report.Matrix) {
	t.Helper()
	for _, p := range pageProblems(page, m) {
		t.Error(p)
	}
}

// TestCommittedMatrixPage checks the committed reports/matrix.html against
// the committed reports/matrix.json and the project: one grid cell per
// target of matrix.yaml × scenario.
func TestCommittedMatrixPage(t *testing.T) {
	page, err := os.ReadFile("../../reports/matrix.html")
	if os.IsNotExist(err) {
		t.Skip("no committed reports/matrix.html: run make reports")
	}
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../../reports/matrix.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := report.ReadJSON(strings.NewReader(string(data)))
	if err != nil {
		t.Fatalf("reports/matrix.json: %v", err)
	}
	mf, err := matrix.Load(repoMatrix)
	if err != nil {
		t.Fatal(err)
	}
	var targets, scenarios []string
	for _, tg := range mf.Targets {
		targets = append(targets, tg.ID)
	}
	for _, sc := range scenario.All() {
		scenarios = append(scenarios, sc.Name)
	}
	if !slices.Equal(m.Targets, targets) || !slices.Equal(m.Scenarios, scenarios) {
		t.Errorf("reports/matrix.json covers %v × %v, want matrix.yaml's targets × every scenario", m.Targets, m.Scenarios)
	}
	checkMatrixPage(t, string(page), m)
}

// TestPageProblems checks that the page checks can fail: each row breaks
// a good page one way.
func TestPageProblems(t *testing.T) {
	m := &report.Matrix{
		Targets:   []string{"deepseek", "mistral"},
		Scenarios: []string{"carriers", "strict-schema"},
		Cells: []report.Cell{
			{Target: "deepseek", Scenario: "carriers", Status: report.StatusPass, Provenance: report.ProvenanceSimulated},
			{Target: "deepseek", Scenario: "strict-schema", Status: report.StatusNA, Detail: "the provider refuses no standard carrier"},
			{Target: "mistral", Scenario: "carriers", Status: report.StatusFail, Provenance: report.ProvenanceRecorded,
				Detail: "the provider refused the request (400)", Expected: "the request accepted", Actual: "refused with 400",
				ProviderError: `{"message":"Extra inputs are not permitted"}`, Cassette: "cassettes/mistral/carriers.yaml", Recorded: "cassettes/mistral/carriers.yaml"},
			{Target: "mistral", Scenario: "strict-schema", Status: report.StatusUnverified,
				Detail: "no recorded answer", Expected: "nearest recorded interaction is 0", Actual: "POST /v1/chat/completions"},
		},
	}
	var b strings.Builder
	if err := report.WriteHTML(&b, m); err != nil {
		t.Fatal(err)
	}
	good := b.String()
	if p := pageProblems(good, m); len(p) > 0 {
		t.Fatalf("the report package's page has problems: %v", p)
	}
	tests := []struct {
		reason string
		edit   func(string) string
		want   string
	}{
		{"a script is refused", func(s string) string {
			return strings.Replace(s, "</body>", `<script src="https://cdn.example/x.js"></script></body>`, 1)
		}, "<script> fetches or runs something"},
		{"a stylesheet link is refused", func(s string) string {
			return strings.Replace(s, "</head>", `<link rel="stylesheet" href="https://fonts.example/css"/></head>`, 1)
		}, "<link> fetches or runs something"},
		{"a chart that links out is refused", func(s string) string {
			return strings.Replace(s, "</body>", `<svg viewBox="0 0 1 1"><image href="https://cdn.example/x.png"></image></svg></body>`, 1)
		}, "<svg> holds <image>, which is not a plain shape or text"},
		{"a web font is refused", func(s string) string {
			return strings.Replace(s, "</style>", "@font-face { font-family: x; src: url(https://fonts.example/x.woff2); }</style>", 1)
		}, "CSS with url( fetches something"},
		{"a link out of the page is refused", func(s string) string {
			return strings.Replace(s, `href="#grid"`, `href="https://example.com/"`, 1)
		}, `does not point into the page`},
		{"a failed cell without its link is caught", func(s string) string {
			return strings.Replace(s, `<a href="#detail-mistral-carriers">`, `<a href="#grid">`, 1)
		}, "mistral/carriers: a fail cell links to [#grid]"},
		{"a missing detail entry is caught", func(s string) string {
			return strings.Replace(s, `id="detail-mistral-carriers"`, `id="gone"`, 1)
		}, `href="#detail-mistral-carriers"> does not point into the page`},
		{"a detail entry without the provider error is caught", func(s string) string {
			return strings.Replace(s, "Extra inputs are not permitted", "", 1)
		}, "mistral/carriers: the detail entry lacks the provider error"},
		{"a missing grid cell is caught", func(s string) string {
			return strings.Replace(s, `data-target="deepseek" data-scenario="carriers"`, `data-target="deepseek" data-scenario="other"`, 1)
		}, "deepseek/carriers: no grid cell"},
		{"a wrong status is caught", func(s string) string {
			return strings.Replace(s, `data-status="unverified"`, `data-status="pass"`, 1)
		}, `mistral/strict-schema: data-status "pass", want "unverified"`},
		{"malformed markup is caught", func(s string) string {
			return strings.Replace(s, "</main>", "", 1)
		}, "the page is not well formed"},
		{"a bare ampersand is caught", func(s string) string {
			return strings.Replace(s, "<h1>", "<h1>R&D ", 1)
		}, "a bare &"},
	}
	for _, tt := range tests {
		page := tt.edit(good)
		if page == good {
			t.Errorf("%s: the edit changed nothing (the report's markup changed?)", tt.reason)
			continue
		}
		problems := pageProblems(page, m)
		if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, tt.want) }) {
			t.Errorf("%s: problems %q, want one containing %q", tt.reason, problems, tt.want)
		}
	}
}
