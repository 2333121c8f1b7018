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
// matrix.html one chart per charted family (inline SVG: the reference
// engine's line flat at 100%, the baseline's falling to 0% at the
// compaction) with the uncharted family listed with its reason.
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
		t.Fatalf("%d charts, want 1 (one charted family)", len(svgs))
	}
	lines := svgs[0].find(func(n *hnode) bool { return n.tag == "polyline" })
	if len(lines) != 2 {
		t.Fatalf("%d lines, want reference and baseline", len(lines))
	}
	// x runs 44..448 over questions 1..6, y 166 (0%) .. 44 (100%).
	if base, ref := lines[0].attrs["points"], lines[1].attrs["points"]; base != "124,44 205,44 286,166 367,126 448,105" || ref != "124,44 205,44 286,44 367,44 448,44" {
		t.Errorf("baseline points %q, reference points %q: want the cliff at question 4 and a flat reference", base, ref)
	}
	if !strings.Contains(page.String(), "chat: strict: strict: the provider reads none of the reasoning the route sends") {
		t.Errorf("matrix.html does not list the uncharted family with its reason")
	}
}
