package gate

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/report"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// sampleResult is a gate result with one change of each kind, a provider
// error needing escapes in every format (newline, %, comma, colon, pipe,
// backtick) and an unchanged matrix around them; sampleFindings adds an
// added target, a coverage finding, routes no cell judges, a removed
// target and the edited lines.
func sampleResult() *Result {
	cell := func(target, sc string, st report.Status, detail, perr string) report.Cell {
		return report.Cell{Target: target, Scenario: sc, Status: st, Provenance: report.ProvenanceSimulated, Detail: detail, ProviderError: perr}
	}
	m := &report.Matrix{Targets: []string{"mistral", "groq"}, Scenarios: []string{"carriers"}}
	return &Result{
		BasePath: "origin/main:matrix.yaml", HeadPath: "matrix.yaml", Base: m, Head: m,
		Changes: []Change{
			{Kind: Improvement, Target: "groq", Scenario: "carriers", Line: 205,
				Base:  cell("groq", "carriers", report.StatusAdvisory, "", ""),
				Head:  cell("groq", "carriers", report.StatusPass, "sent reasoning", ""),
				Field: "carriers +reasoning (row strict-reasoning)"},
			{Kind: Regression, Target: "mistral", Scenario: "carriers", Line: 204,
				Base: cell("mistral", "carriers", report.StatusPass, "", ""),
				Head: cell("mistral", "carriers", report.StatusFail, "the provider refused the request (422)",
					"{\"detail\":[{\"type\":\"extra_forbidden\",\"loc\":[\"body\",\"messages\",1],\n\"msg\":\"Extra inputs are not permitted: 100% | `reasoning_content`\"}]}"),
				Field: "carriers +reasoning_content (row strict)", Why: WhyRefused},
			{Kind: Regression, Target: "groq", Scenario: "carriers", Line: 205,
				Base:  cell("groq", "carriers", report.StatusPass, "", ""),
				Head:  cell("groq", "carriers", report.StatusAdvisory, "the route sends none; the provider is recorded accepting and reading reasoning as well", ""),
				Field: "carriers -reasoning (row strict-reasoning)", Why: WhyDropped},
		},
	}
}

func sampleFindings() *Result {
	r := sampleResult()
	r.Changes = append(r.Changes,
		Change{Kind: Added, New: true, Target: "relay", Scenario: "carriers", Line: 310, Field: "new target",
			Head: report.Cell{Target: "relay", Scenario: "carriers", Status: report.StatusPass, Detail: "accepted"}},
		Change{Kind: Regression, New: true, Target: "relay", Scenario: "missing-echo", Line: 310, Field: "new target", Why: WhyNewFails,
			Head: report.Cell{Target: "relay", Scenario: "missing-echo", Status: report.StatusFail, Detail: "the provider refused the request (400)",
				ProviderError: `{"error":{"message":"The reasoning_content in the thinking mode must be passed back to the API."}}`}})
	r.Uncovered = []Finding{{Line: 37, Message: "carrier_routes[strict].hosts: api.together.xyz: no target or alias reaches this entry"}}
	r.Unchecked = []RouteChange{{Change: "chat: carriers reasoning_content -> none", Hosts: 2,
		Routes: []string{"chat (custom, https://api.together.xyz/v1, m)", "chat (x, https://api.api.together.xyz/v1, m)", "chat (y, https://api.together.xyz/v1, m)", "chat (z, https://api.together.xyz/v1, m)"}}}
	r.Removed = []string{"target cerebras"}
	r.Edits = []Edit{{From: 37, To: 37}, {From: 310, To: 311}}
	return r
}

func TestFormatsGolden(t *testing.T) {
	samples := map[string]*Result{"": sampleResult(), "-findings": sampleFindings()}
	for _, format := range Formats {
		for suffix, sample := range samples {
			t.Run(format+suffix, func(t *testing.T) { golden(t, format, suffix, sample) })
		}
	}
	if _, ok := Writer("yaml"); ok {
		t.Error("an unknown format has a writer")
	}
	if _, ok := Writer("md"); !ok {
		t.Error("md, as run takes it, is no name of the markdown format")
	}
}

// golden compares a format's rendering of sample with its golden file.
func golden(t *testing.T, format, suffix string, sample *Result) {
	write, ok := Writer(format)
	if !ok {
		t.Fatalf("format %s has no writer", format)
	}
	var out bytes.Buffer
	if err := write(&out, sample); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "gate"+suffix+"."+format)
	if *update {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./gate -update)", err)
	}
	if out.String() != string(want) {
		t.Errorf("%s differs from %s:\n%s", format, path, out.String())
	}
}

// TestGitHubCommands checks that every line is one workflow command (or the
// verdict), that a regression is an ::error on its target's line and that
// message text cannot break out of its command.
func TestGitHubCommands(t *testing.T) {
	var out bytes.Buffer
	if err := WriteGitHub(&out, sampleResult()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("want a command per change and the verdict, got:\n%s", out.String())
	}
	if !strings.HasPrefix(lines[0], "::error file=matrix.yaml,line=204,title=replaycheck regression%3A mistral/carriers::") {
		t.Errorf("the regression is not an error annotation on its line: %s", lines[0])
	}
	if !strings.HasPrefix(lines[1], "::error file=matrix.yaml,line=205,") || !strings.Contains(lines[1], WhyDropped) {
		t.Errorf("pass -> advisory is not an error annotation naming reasoning the route no longer sends: %s", lines[1])
	}
	if !strings.HasPrefix(lines[2], "::notice file=matrix.yaml,line=205,") {
		t.Errorf("the improvement is not a notice: %s", lines[2])
	}
	if !strings.Contains(lines[0], "100%25") || !strings.Contains(lines[0], "%0A") {
		t.Errorf("%% and newlines in the message must be escaped: %s", lines[0])
	}
	if lines[3] != "gate: 2 regressions" {
		t.Errorf("verdict %q", lines[3])
	}
	r := sampleResult()
	r.Head = &report.Matrix{Targets: []string{"mistral"}, Scenarios: []string{"carriers"}, Cells: []report.Cell{{Target: "mistral", Scenario: "carriers", Status: report.StatusError}}}
	out.Reset()
	WriteGitHub(&out, r)
	if !strings.Contains(out.String(), "::error title=replaycheck gate incomplete::gate: 1 cell could not be judged") {
		t.Errorf("a gate with error cells must say it is incomplete:\n%s", out.String())
	}
}

func TestJSONContract(t *testing.T) {
	var out bytes.Buffer
	if err := WriteJSON(&out, sampleResult()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Base, Head      string
		Changes         []map[string]any
		Regressions     int
		NotJudged       []map[string]any `json:"not_judged"`
		Uncovered       []map[string]any
		Unchecked       []map[string]any
		UncheckedRoutes int `json:"unchecked_routes"`
		Removed         []string
		Edits           []map[string]any
		Passed          bool
	}
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.Passed || doc.Regressions != 2 || len(doc.Changes) != 3 || doc.Changes[0]["kind"] != Regression || doc.Changes[0]["line"] != float64(204) {
		t.Errorf("decoded %+v", doc)
	}
	out.Reset()
	WriteJSON(&out, sampleFindings())
	doc.Changes, doc.Unchecked = nil, nil
	if err := json.NewDecoder(&out).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Uncovered) != 1 || doc.Uncovered[0]["line"] != float64(37) || doc.UncheckedRoutes != 4 || len(doc.Unchecked[0]["routes"].([]any)) != 4 ||
		len(doc.Removed) != 1 || len(doc.Edits) != 2 || doc.Edits[1]["to"] != float64(311) {
		t.Errorf("the JSON form must list every finding, route and edit: %+v", doc)
	}
	empty := &Result{Base: &report.Matrix{}, Head: &report.Matrix{}}
	out.Reset()
	WriteJSON(&out, empty)
	for _, list := range []string{"changes", "not_judged", "uncovered", "unchecked", "removed", "edits"} {
		if !strings.Contains(out.String(), `"`+list+`": []`) {
			t.Errorf("an empty %s is not an empty list:\n%s", list, out.String())
		}
	}
	if !strings.Contains(out.String(), `"changes": []`) || !strings.Contains(out.String(), `"passed": true`) {
		t.Errorf("no change is an empty list and a pass:\n%s", out.String())
	}
}
