package scenario

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/sim"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// FallbackSeed is the simulator seed of the profile-judged fallback. It is
// the seed `make cassettes` simulates with, so opaque values a simulated
// cassette holds verify under the fallback simulator too.
const FallbackSeed = "replaycheck"

// simulators caches one fallback simulator per profile for a runner.
type simulators struct {
	mu  sync.Mutex
	by  map[string]*sim.Simulator
	err map[string]error
}

// matching returns the loose matching of a target's cells: its profile's
// declared differences, then its profile's simulator.
func (r *Runner) matching(t matrix.Target) (*harness.Matching, error) {
	p, ok := r.Profiles[t.Profile]
	if !ok {
		return nil, nil
	}
	r.sims.mu.Lock()
	defer r.sims.mu.Unlock()
	if r.sims.by == nil {
		r.sims.by, r.sims.err = map[string]*sim.Simulator{}, map[string]error{}
	}
	s, ok := r.sims.by[p.Name]
	if !ok {
		var err error
		s, err = sim.New(p, sim.Options{Seed: FallbackSeed})
		r.sims.by[p.Name], r.sims.err[p.Name] = s, err
	}
	if err := r.sims.err[p.Name]; err != nil {
		return nil, fmt.Errorf("target %s: the profile-judged fallback: %w", t.ID, err)
	}
	return &harness.Matching{Profile: p, Fallback: s}, nil
}

// annotate notes in a judged cell how its requests were answered beyond
// exact matching: recorded answers matched up to declared differences
// (each named with its source), and answers of the profile's simulator
// (each rule named with its source), which make the cell's provenance
// "profile".
func annotate(cell *report.Cell, out outcome) {
	var notes []string
	if len(out.loose) > 0 {
		seen := map[string]bool{}
		var why []string
		for _, m := range out.loose {
			for _, d := range m.Differences {
				if seen[d] {
					continue
				}
				seen[d] = true
				ig, _ := out.profile.Ignores(d)
				why = append(why, fmt.Sprintf("%s (source: %s)", d, ig.Source))
			}
		}
		notes = append(notes, fmt.Sprintf("%d request(s) matched a recorded one up to differences the %s profile declares ignorable: %s",
			len(out.loose), out.profile.Name, strings.Join(why, "; ")))
	}
	if len(out.judged) > 0 {
		var what []string
		for _, j := range out.judged {
			if j.Rule == "" {
				what = append(what, fmt.Sprintf("%d, no rule fires", j.Status))
				continue
			}
			src := ""
			for _, rule := range out.profile.Rules {
				if rule.ID == j.Rule {
					src = rule.Source
				}
			}
			what = append(what, fmt.Sprintf("%d by rule %s (source: %s)", j.Status, j.Rule, src))
		}
		notes = append(notes, fmt.Sprintf("%d request(s) no cassette holds judged by the %s profile v%d: %s",
			len(out.judged), out.profile.Name, out.profile.Version, strings.Join(what, "; ")))
		cell.Provenance = report.ProvenanceProfile
		cell.Recorded = ""
	}
	if len(notes) > 0 {
		cell.Detail = strings.TrimPrefix(cell.Detail+"; "+strings.Join(notes, "; "), "; ")
	}
}

// judgedBefore says, for a cell an implementation left n/a by answering
// unsupported late, what had been judged before: how many requests, their
// answers, and the notes of the assertions that held.
func judgedBefore(out outcome) string {
	if out.conv == nil || len(out.conv.Exchanges) == 0 {
		return ""
	}
	accepted := 0
	var carried []string
	for _, e := range out.conv.Exchanges {
		if e.Status/100 == 2 {
			accepted++
		}
		for _, c := range e.Carried {
			if !slices.Contains(carried, c) {
				carried = append(carried, c)
			}
		}
	}
	s := fmt.Sprintf("; judged before it: %d request(s), %d accepted, carrying %s", len(out.conv.Exchanges), accepted, orNone(carried))
	if len(out.notes) > 0 {
		s += "; " + strings.Join(out.notes, "; ")
	}
	return s
}
