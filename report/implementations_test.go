package report

import (
	"bytes"
	"strings"
	"testing"
)

func TestFailClassAndLinks(t *testing.T) {
	for _, tc := range []struct {
		reason, class string
		links         int
		why           string
	}{
		{"library defect: no pad; https://github.com/charmbracelet/crush/issues/2696 https://github.com/charmbracelet/crush/issues/2754", "library defect", 2, "the class and both links are read"},
		{"connector limit: no flags", "connector limit", 0, "a limit carries no link"},
		{"simulated guess: rule partial (https://example.com/x)", "simulated guess", 1, "a link closed by a parenthesis stops before it"},
		{"deliberate gap: the example sends no flag", "", 0, "a reason that names no class has none"},
	} {
		if got := FailClass(tc.reason); got != tc.class {
			t.Errorf("%s: FailClass = %q, want %q", tc.why, got, tc.class)
		}
		if got := ReasonLinks(tc.reason); len(got) != tc.links || (len(got) > 0 && strings.HasSuffix(got[len(got)-1], ")")) {
			t.Errorf("%s: ReasonLinks = %q, want %d", tc.why, got, tc.links)
		}
	}
}

func TestWriteImplementations(t *testing.T) {
	m := &Matrix{
		Implementation: &Implementation{Name: "lib", Version: "1.0"},
		Targets:        []string{"deepseek"},
		Scenarios:      []string{"carriers", "flags"},
		Cells: []Cell{
			{Target: "deepseek", Scenario: "carriers", Status: StatusKnownFail, ProviderError: "must be passed back"},
			{Target: "deepseek", Scenario: "flags", Status: StatusAdvisory, Detail: "undeclared advisory: the route sends less than the provider reads"},
		},
	}
	rows := []ImplementationRow{{Path: "connectors/lib", Run: "lib-connector", Matrix: m, Reasons: map[string]string{
		"deepseek/carriers": "library defect: no pad; https://github.com/o/r/issues/1",
	}}}
	var md, page bytes.Buffer
	if err := WriteImplementationsMarkdown(&md, rows); err != nil {
		t.Fatal(err)
	}
	if err := WriteImplementationsHTML(&page, rows); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| lib 1.0 | 0 / 1 | 0 / 1 |", "**library defect**: no pad; <https://github.com/o/r/issues/1>", "(cause: `must be passed back`)"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	if want := `<a href="https://github.com/o/r/issues/1">`; !strings.Contains(page.String(), want) {
		t.Errorf("html lacks %q", want)
	}
	// A fail with nothing to quote (an advisory) shows no cause at all.
	for name, out := range map[string]string{"markdown": md.String(), "html": page.String()} {
		if strings.Contains(out, "(empty)") {
			t.Errorf("%s shows the (empty) placeholder as a cause:\n%s", name, out)
		}
	}
	if err := WriteImplementationsMarkdown(&md, nil); err == nil {
		t.Error("no implementation: want an error")
	}
}
