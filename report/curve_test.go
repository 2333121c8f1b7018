package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// cliffCurve is a two-target curve of six questions: gateway reads earlier
// reasoning (compaction before question 4; the baseline's answer there
// states none of the two kept conclusions), strict reads nothing.
func cliffCurve() *QualityCurve {
	ref := CurveSeries{Stated: []int{0, 1, 2, 2, 3, 4}, InContext: []int{0, 1, 2, 2, 3, 4}, Compactions: []int{4}}
	base := CurveSeries{Stated: []int{0, 1, 2, 0, 1, 2}, InContext: []int{0, 1, 2, 2, 3, 4}, Compactions: []int{4}, Refused: []int{6}}
	ref.Settle()
	base.Settle()
	return &QualityCurve{Questions: 6, Provenance: "simulated", Method: CurveMethod(6, 8), Targets: []CurveTarget{
		{Target: "gateway", Family: "chat: gateways", Reads: ReadsPrior, Reference: ref, Baseline: base},
		{Target: "strict", Family: "chat: strict", Reads: ReadsNothing, Reference: CurveSeries{Stated: make([]int, 6), InContext: make([]int, 6), Compactions: []int{}, After: []int{}}},
	}}
}

// TestCurveReports checks the curve in every report that shows it: the
// figures after compaction in matrix.md and matrix.json, and in
// matrix.html one chart over every target whose provider reads earlier
// reasoning (inline SVG: the reference engine's line flat at 100%, the
// baseline's falling to 0% at the compaction, a refused question at 0%),
// a row of figures per family, and the targets without a line listed with
// their reason.
func TestCurveReports(t *testing.T) {
	m := sampleMatrix()
	m.Curve = cliffCurve()
	if got := m.Curve.Targets[0].Baseline.After; len(got) != 1 || got[0] != 0 {
		t.Fatalf("baseline after compaction = %v, want [0]", got)
	}
	var md, js, page bytes.Buffer
	if err := WriteMarkdown(&md, m); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## Quality after compaction",
		"the answer states 100% of the kept turns' conclusions with the reference engine, 0% with the baseline",
		"| chat: gateways | `gateway` | prior | 1 / 1 | 100% | 0% (baseline refused 1 times) |",
		"| chat: strict | `strict` | nothing: the provider reads none of the reasoning the route sends | 0 / 0 | n/a | n/a |",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("matrix.md lacks %q:\n%s", want, md.String())
		}
	}
	if err := WriteJSON(&js, m); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(&js)
	if err != nil {
		t.Fatalf("matrix.json with a curve does not read back: %v", err)
	}
	if got, _ := json.Marshal(back.Curve); !strings.Contains(string(got), `"compactions":[4],"after_compaction":[0],"refused":[6]`) {
		t.Errorf("matrix.json curve = %s, want the baseline's compaction, share and refusal", got)
	}
	if err := WriteHTML(&page, m); err != nil {
		t.Fatal(err)
	}
	root, err := parseXHTML(page.String())
	if err != nil {
		t.Fatalf("matrix.html with a curve is not well-formed: %v", err)
	}
	svgs := root.find(func(n *hnode) bool { return n.tag == "svg" })
	if len(svgs) != 1 {
		t.Fatalf("%d charts, want 1", len(svgs))
	}
	lines := svgs[0].find(func(n *hnode) bool { return n.tag == "polyline" })
	if len(lines) != 2 {
		t.Fatalf("%d lines, want reference and baseline", len(lines))
	}
	// x runs 64..704 over questions 1..6, y 230 (0%) .. 54 (100%); the
	// refused question 6 states nothing.
	if base, ref := lines[0].attrs["points"], lines[1].attrs["points"]; base != "192,54 320,54 448,230 576,172 704,230" || ref != "192,54 320,54 448,54 576,54 704,54" {
		t.Errorf("baseline points %q, reference points %q: want the cliff at question 4 and a flat reference", base, ref)
	}
	if !strings.Contains(page.String(), "strict (chat: strict): the provider reads none of the reasoning the route sends") {
		t.Errorf("matrix.html does not list the target without a line with its reason")
	}
	if !strings.Contains(page.String(), "<tr><th scope=\"row\">chat: gateways</th><td><code>gateway</code></td><td>100%</td><td>0%</td><td>1</td></tr>") {
		t.Errorf("matrix.html has no row of figures for the charted family:\n%s", page.String())
	}
	if !strings.Contains(page.String(), ">earlier conclusions stated</text>") {
		t.Error("the chart's y axis has no label")
	}
}
