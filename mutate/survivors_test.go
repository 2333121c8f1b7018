package mutate_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/replaycheck/replaycheck/mutate"
)

// TestSurvivorDeclarations: a survivor the table declares is listed with
// the recording it needs; a declaration whose mutant is equivalent, or
// that no operator makes, is stale; the other survivors stay undeclared.
func TestSurvivorDeclarations(t *testing.T) {
	src := fixture + `survivors:
  - {edit: "drop groq.com from carrier_routes[strict].hosts", needs: "a recording of Groq under a custom provider id"}
  - {edit: "drop api.groq.com from carrier_routes[shadowed].hosts", needs: "nothing: the mutant is equivalent"}
  - {edit: "drop nothing from nowhere", needs: "no such mutant"}
`
	rep := run(t, src)
	m := find(t, rep, "drop groq.com from carrier_routes[strict].hosts")
	if m.Outcome != mutate.Survived || m.Needs != "a recording of Groq under a custom provider id" || m.NeedsLine != 16 {
		t.Errorf("%s: %s, needs %q at line %d; want a survivor with its declared recording at line 16", m.Edit, m.Outcome, m.Needs, m.NeedsLine)
	}
	var stale []string
	for _, s := range rep.Stale {
		stale = append(stale, s.Edit+"="+string(s.Outcome))
	}
	if got, want := strings.Join(stale, " "), "drop api.groq.com from carrier_routes[shadowed].hosts=equivalent drop nothing from nowhere="; got != want {
		t.Errorf("stale declarations %q, want %q", got, want)
	}
	if n := rep.Undeclared(); n != 4 {
		t.Errorf("%d undeclared survivors, want 4: of the fixture's five survivors one is declared", n)
	}

	var text bytes.Buffer
	if err := mutate.WriteText(&text, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"           needs (m.yaml:16): a recording of Groq under a custom provider id\n",
		"STALE      m.yaml:17: survivors: drop api.groq.com from carrier_routes[shadowed].hosts: the mutant is equivalent, not a survivor: remove the declaration\n",
		"STALE      m.yaml:18: survivors: drop nothing from nowhere: no operator makes this mutant: remove the declaration\n",
		"5 survived (1 waiting for a recording nobody has published)",
		"; 2 stale survivor declarations\n",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	var doc struct {
		Mutants []struct{ Edit, Needs string }
		Stale   []struct {
			Edit, Outcome string
			Line          int
		}
	}
	var js bytes.Buffer
	if err := mutate.WriteJSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Stale) != 2 || doc.Stale[1].Line != 18 || doc.Stale[1].Outcome != "" {
		t.Errorf("JSON stale %+v, want the two stale declarations, the second with no outcome", doc.Stale)
	}

	// Judging only some mutants, a declaration of another is not stale.
	part := runEdits(t, src, []string{"drop groq.com from carrier_routes[strict].hosts"})
	if len(part.Stale) != 0 {
		t.Errorf("stale %+v with only one edit judged, want none", part.Stale)
	}
}
