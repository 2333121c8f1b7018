package report

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	cell := func(target, scenario string, s Status, provenance string) Cell {
		c := Cell{Target: target, Scenario: scenario, Status: s, Provenance: provenance}
		if provenance == ProvenanceRecorded {
			c.Recorded = "cassettes/" + target + "/" + scenario + ".yaml"
		}
		return c
	}
	with := func(c Cell, recorded string) Cell { c.Recorded = recorded; return c }
	ev := func(edit func(*Evidence)) *Evidence {
		e := &Evidence{
			Targets: []EvidenceTarget{{Target: "a", Cassettes: 1, Exchanges: 1}},
			Exchanges: []EvidenceExchange{{Cassette: "cassettes/a/recorded/r.yaml", Target: "a",
				Capture: Check{Verdict: VerdictPass}, Reproduction: Check{Verdict: VerdictNA}, Simulator: Check{Verdict: VerdictAgree}}},
			Profiles: []ProfileFidelity{{Profile: "p", Exchanges: 1, Agree: 1}},
		}
		if edit != nil {
			edit(e)
		}
		return e
	}
	imported := with(cell("a", "x", StatusPass, ProvenanceRecorded), "cassettes/a/recorded/r.yaml")
	ok := cell("a", "x", StatusPass, ProvenanceRecorded)
	tests := []struct {
		m      Matrix
		want   string // "" for valid
		reason string
	}{
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{ok}}, "", "a complete matrix is valid"},
		{Matrix{}, "", "an empty matrix is valid"},
		{Matrix{Implementation: &Implementation{Name: "acme-agent", Version: "0.3.1"}}, "", "an implementation needs a name and a version"},
		{Matrix{Implementation: &Implementation{Name: "acme-agent"}}, "implementation.version: empty", "an implementation names its version"},
		{Matrix{Implementation: &Implementation{Name: "acme\nagent", Version: "1"}}, `implementation.name: "acme\nagent" is not one line`,
			"an implementation's name is one line"},
		{Matrix{Implementation: &Implementation{Name: "a", Version: "1", Homepage: "x\ry"}}, `implementation.homepage: "x\ry" is not one line`,
			"optional fields are one line too"},
		{Matrix{Targets: []string{"gemini-2.5_pro"}, Scenarios: []string{"x"}, Cells: []Cell{cell("gemini-2.5_pro", "x", StatusNA, "")}},
			"", "ids may join words with dots and underscores"},
		{Matrix{Targets: []string{"a", "Bad Id"}, Scenarios: []string{"x"}},
			`targets[1]: "Bad Id" is not a lowercase id (words of a-z and 0-9 joined by -, . or _)`, "ids are lowercase words"},
		{Matrix{Targets: []string{"a-"}, Scenarios: []string{"x"}}, `targets[0]: "a-" is not a lowercase id`, "an id does not end in a separator"},
		{Matrix{Targets: []string{"a~0"}, Scenarios: []string{"x"}}, `targets[0]: "a~0" is not a lowercase id`, "an alias counts from 1"},
		{Matrix{Targets: []string{"a", "x~1"}, Scenarios: []string{"x~1"}}, `scenarios[0]: "x~1" is not a lowercase id`, "only a target's row may be an alias"},
		{Matrix{Targets: []string{"a--b"}, Scenarios: []string{"x"}}, `targets[0]: "a--b" is not a lowercase id`, "separators are single"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{""}}, `scenarios[0]: "" is not a lowercase id`, "an empty scenario name is refused"},
		{Matrix{Targets: []string{"a", "a"}, Scenarios: []string{"x"}}, `targets[1]: duplicate id "a"`, "target ids are unique"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x", "x"}}, `scenarios[1]: duplicate id "x"`, "scenario names are unique"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{ok, cell("b", "x", StatusPass, ProvenanceRecorded)}},
			`cells[1].target: "b" is not listed in targets`, "a cell names a listed target"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{cell("a", "y", StatusPass, ProvenanceRecorded)}},
			`cells[0].scenario: "y" is not listed in scenarios`, "a cell names a listed scenario"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{ok, ok}},
			`cells[1]: duplicate cell a/x (first at cells[0])`, "one cell per target × scenario"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{cell("a", "x", "passed", ProvenanceRecorded)}},
			`cells[0].status: unknown status "passed" (want one of pass, fail, unverified, n/a, known-fail, advisory, error)`, "statuses are the seven"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{cell("a", "x", StatusPass, "")}},
			`cells[0].provenance: empty on a pass cell (want "simulated", "recorded" or "profile")`, "a judged cell says what judged it"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{cell("a", "x", StatusFail, "live")}},
			`cells[0].provenance: unknown provenance "live" (want "simulated", "recorded", "profile" or "agent")`, "provenance is one of four words"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{cell("a", "x", StatusNA, ProvenanceSimulated)}},
			`cells[0].provenance: "simulated" on an n/a cell (want "": nothing was judged)`, "n/a cells have no provenance"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{cell("a", "x", StatusUnverified, "")}},
			"", "an unverified cell may have no cassette to name"},
		{Matrix{Targets: []string{"a", "b"}, Scenarios: []string{"x"}, Cells: []Cell{ok}},
			`cells: no cell for b/x`, "every target × scenario has a cell"},
		{Matrix{Targets: []string{"t-missing", "t"}, Scenarios: []string{"echo", "missing-echo"}, Cells: []Cell{
			cell("t-missing", "echo", StatusPass, ProvenanceRecorded), cell("t", "missing-echo", StatusPass, ProvenanceRecorded)}},
			`cells[1]: cell t/missing-echo has the same detail anchor "detail-t-missing-echo" as cells[0]`,
			"detail anchors must not collide"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{with(ok, "")}},
			`cells[0].recorded: empty on a recorded cell: name the recorded cassette behind it`, "a (rec) cell is backed by a recorded cassette"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{with(cell("a", "x", StatusPass, ProvenanceSimulated), "cassettes/a/x.yaml")}},
			`cells[0].recorded: "cassettes/a/x.yaml" on a simulated cell: only a recorded cell names recorded cassettes`, "simulated is never called recorded"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{imported}},
			`cells[0].recorded: "cassettes/a/recorded/r.yaml" is neither the cell's own cassette (cassettes/a/x.yaml) nor an imported cassette of a the evidence section lists`,
			"imported evidence backs a cell only when the section lists it"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{imported}, Evidence: ev(nil)}, "",
			"a cell backed by a listed imported cassette"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{ok}, Evidence: ev(func(e *Evidence) {
			e.DialectOnly = []DialectCapture{{Cassette: "cassettes/_dialect-gemini/recorded/r.yaml", Dialect: "gemini", Capture: Check{Verdict: VerdictPass}}}
		})}, "", "a response-only exchange no target takes is listed under its dialect"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{ok}, Evidence: ev(func(e *Evidence) {
			e.DialectOnly = []DialectCapture{{Cassette: "cassettes/a/recorded/r.yaml", Dialect: "gemini", Capture: Check{Verdict: VerdictPass}}}
		})}, `evidence.dialect_only[0].cassette: "cassettes/a/recorded/r.yaml" is not cassettes/_dialect-<dialect>/recorded/<name>.yaml for dialect "gemini"`,
			"a dialect-only exchange sits under its dialect, not a target"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{ok}, Evidence: ev(func(e *Evidence) {
			e.DialectOnly = []DialectCapture{{Cassette: "cassettes/_dialect-gemini/recorded/r.yaml", Dialect: "gemini", Capture: Check{Verdict: VerdictAgree}}}
		})}, `evidence.dialect_only[0].capture.verdict: "agree" is not a capture verdict (want one of pass, fail, not-checked, n/a)`,
			"only capture is checked on it"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{ok}, Evidence: ev(func(e *Evidence) {
			d := DialectCapture{Cassette: "cassettes/_dialect-gemini/recorded/r.yaml", Dialect: "gemini", Capture: Check{Verdict: VerdictPass}}
			e.DialectOnly = []DialectCapture{d, d}
		})}, `evidence.dialect_only[1]: _dialect-gemini/recorded/r.yaml#0 comes after _dialect-gemini/recorded/r.yaml#0: sorted by cassette, then interaction, once each`,
			"each once, in order"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{ok}, Evidence: ev(func(e *Evidence) { e.Targets = nil })},
			`evidence.targets: 0 rows, want one per target (1)`, "every target gets a count, zero or not"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{ok}, Evidence: ev(func(e *Evidence) { e.Targets[0].Exchanges = 2 })},
			`evidence.targets[0].exchanges: 2, but 1 exchanges name a`, "counts add up"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{ok}, Evidence: ev(func(e *Evidence) { e.Exchanges[0].Cassette = "cassettes/a/x.yaml" })},
			`evidence.exchanges[0].cassette: "cassettes/a/x.yaml" is not cassettes/a/recorded/<name>.yaml`, "evidence sits in the recorded directory"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{ok}, Evidence: ev(func(e *Evidence) { e.Exchanges[0].Simulator.Verdict = VerdictPass })},
			`evidence.exchanges[0].simulator.verdict: "pass" is not a simulator verdict (want one of agree, disagree, unverifiable, not-checked)`, "each check has its own verdicts"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{ok}, Evidence: ev(func(e *Evidence) {
			e.Exchanges = append(e.Exchanges, e.Exchanges[0])
			e.Targets[0].Exchanges = 2
			e.Profiles[0].Exchanges, e.Profiles[0].Agree = 2, 2
		})}, `evidence.exchanges[1]: a/recorded/r.yaml#0 comes after a/recorded/r.yaml#0`, "each exchange once, in order"},
		{Matrix{Targets: []string{"a"}, Scenarios: []string{"x"}, Cells: []Cell{ok}, Evidence: ev(func(e *Evidence) { e.Profiles[0].Agree = 0 })},
			`evidence.profiles[0]: p counts 1 exchanges but its verdicts add up to 0`, "fidelity counts add up"},
	}
	for _, tc := range tests {
		err := tc.m.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: unexpected error %v", tc.reason, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s: got error %v, want %s", tc.reason, err, tc.want)
		}
	}
}
