package matrix

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// A Survivor declares that one mutant of the table (a single edit
// replaycheck mutate makes, named by its edit: "drop nous from
// carrier_routes[gateways].providers") survives the gate because only a
// recording nobody has published could tell it apart, and names that
// recording. mutate lists the survivor with it; a declaration whose
// mutant is killed, noticed or equivalent, or no longer made, is stale.
type Survivor struct {
	// Edit is the mutant's edit, as mutate names it.
	Edit string
	// Needs is the recording that would kill it, and why none is
	// published.
	Needs string
	Line  int
}

// Survivor returns the declaration of a mutant's edit, if any.
func (f *File) Survivor(edit string) (Survivor, bool) {
	for _, s := range f.Survivors {
		if s.Edit == edit {
			return s, true
		}
	}
	return Survivor{}, false
}

// loadSurvivors reads the declarations of surviving mutants: each an edit
// and the recording it needs, each edit once.
func loadSurvivors(w walker, top map[string]*yaml.Node, f *File) error {
	items, err := w.sequence(top["survivors"], "survivors")
	if err != nil {
		return err
	}
	for _, it := range items {
		m, err := w.mapping(it, "survivor", "edit", "needs")
		if err != nil {
			return err
		}
		s := Survivor{Line: it.Line}
		if s.Edit, err = w.str(m["edit"], "survivor edit"); err != nil {
			return err
		}
		if s.Needs, err = w.str(m["needs"], "survivor needs"); err != nil {
			return err
		}
		if strings.TrimSpace(s.Edit) == "" {
			return w.errf(it, "survivor: an edit is required (as replaycheck mutate names it)")
		}
		if strings.TrimSpace(s.Needs) == "" {
			return w.errf(it, "survivor %q: needs is required: the recording that would kill it", s.Edit)
		}
		if prev, ok := f.Survivor(s.Edit); ok {
			return w.errf(it, "survivor %q: declared twice (first at line %d)", s.Edit, prev.Line)
		}
		f.Survivors = append(f.Survivors, s)
	}
	return nil
}
