package mutate

import (
	"github.com/replaycheck/replaycheck/matrix"
)

// A StaleSurvivor is a survivor declaration of the table (survivors: in
// matrix.yaml) whose mutant does not survive: the gate now sees it, it is
// equivalent, or no operator makes it any more. It fails until removed.
type StaleSurvivor struct {
	matrix.Survivor
	// Outcome is the mutant's outcome, or "" when no mutant has the edit.
	Outcome Outcome
}

// declareSurvivors gives each surviving mutant the recording its table
// declares it needs, and returns the declarations whose mutant did not
// survive, in file order. With only some mutants judged (edits), a
// declaration of another mutant is not stale.
func declareSurvivors(f *matrix.File, mutants []Judged, edits []string) []StaleSurvivor {
	byEdit := map[string]*Judged{}
	for i := range mutants {
		m := &mutants[i]
		byEdit[m.Edit] = m
		if s, ok := f.Survivor(m.Edit); ok && m.Outcome == Survived {
			m.Needs, m.NeedsLine = s.Needs, s.Line
		}
	}
	var out []StaleSurvivor
	for _, s := range f.Survivors {
		m, ok := byEdit[s.Edit]
		switch {
		case ok && m.Outcome == Survived:
		case ok:
			out = append(out, StaleSurvivor{Survivor: s, Outcome: m.Outcome})
		case len(edits) == 0:
			out = append(out, StaleSurvivor{Survivor: s})
		}
	}
	return out
}

// Undeclared counts the survivors the table declares no recording for.
func (r *Report) Undeclared() int {
	n := 0
	for _, m := range r.Mutants {
		if m.Outcome == Survived && m.Needs == "" {
			n++
		}
	}
	return n
}

// staleText says why a declaration is stale.
func (s StaleSurvivor) staleText() string {
	if s.Outcome == "" {
		return "no operator makes this mutant: remove the declaration"
	}
	return "the mutant is " + string(s.Outcome) + ", not a survivor: remove the declaration"
}
