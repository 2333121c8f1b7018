package evidence

import (
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/engine/dialects"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/report"
)

// Inputs say what the checks hold the recordings against.
type Inputs struct {
	// Matrix holds the targets.
	Matrix *matrix.File
	// Table is the route table under test; nil means Matrix.Table.
	Table *engine.Table
	// Profiles are the provider profiles by name (the simulators).
	Profiles map[string]*providers.Profile
	// Dir is the directory holding <target>/recorded/*.yaml.
	Dir string
	// Targets restricts the section to these target ids, in matrix order;
	// nil means every target.
	Targets []string
}

func (in Inputs) table() *engine.Table {
	if in.Table != nil {
		return in.Table
	}
	return &in.Matrix.Table
}

// Run loads the imported cassettes and runs the three checks on every
// exchange, returning the evidence section: one row per selected target,
// the exchanges sorted by cassette and interaction, the fidelity per
// profile sorted by name.
func Run(in Inputs) (*report.Evidence, error) {
	cs, unreadable, err := Load(in.Dir, in.Matrix, in.Targets)
	if err != nil {
		return nil, err
	}
	ev := &report.Evidence{Targets: []report.EvidenceTarget{}, Exchanges: []report.EvidenceExchange{}, Profiles: []report.ProfileFidelity{}, Unreadable: unreadable}
	byTarget := map[string][]*exchange{}
	perCassette := make([][]*exchange, len(cs))
	for i := range cs {
		perCassette[i] = exchanges(&cs[i])
		if cs[i].Dialect == "" {
			byTarget[cs[i].Target.ID] = append(byTarget[cs[i].Target.ID], perCassette[i]...)
		}
	}
	for _, t := range in.Matrix.Targets {
		if in.Targets != nil && !slices.Contains(in.Targets, t.ID) {
			continue
		}
		row := report.EvidenceTarget{Target: t.ID, Exchanges: len(byTarget[t.ID])}
		for _, c := range cs {
			if c.Target.ID == t.ID {
				row.Cassettes++
			}
		}
		ev.Targets = append(ev.Targets, row)
	}
	fidelity := map[string]*report.ProfileFidelity{}
	for i, c := range cs {
		mode := c.Target.Route.APIMode
		dia, err := dialects.For(mode, in.table())
		if err != nil {
			dia = nil
		}
		xs := perCassette[i]
		if c.Dialect != "" {
			for k, x := range xs {
				check, _ := captureCheck(dia, mode, x)
				check.Scenarios = nil // it backs no cell: no target took it
				ev.DialectOnly = append(ev.DialectOnly, report.DialectCapture{Cassette: c.Name, Interaction: k, Dialect: string(c.Dialect),
					Source: x.citation(), Capture: check})
			}
			continue
		}
		r := &reproduction{table: in.table(), dia: dia, mode: mode, xs: xs, captured: make([]capture, len(xs)),
			accepted: buildIndex(mode, byTarget[c.Target.ID]), profile: in.Profiles[c.Target.Profile]}
		checks := make([]report.Check, len(xs))
		for k, x := range xs {
			checks[k], r.captured[k] = captureCheck(dia, mode, x)
		}
		profile := in.Profiles[c.Target.Profile]
		for k, x := range xs {
			e := report.EvidenceExchange{
				Cassette: c.Name, Interaction: k, Target: c.Target.ID, Request: x.describe(), Status: x.it.Response.Code,
				Source: x.citation(), Capture: checks[k], Reproduction: r.check(k), Simulator: fidelityCheck(profile, x),
			}
			ev.Exchanges = append(ev.Exchanges, e)
			name := c.Target.Profile
			if fidelity[name] == nil {
				fidelity[name] = &report.ProfileFidelity{Profile: name}
			}
			count(fidelity[name], e.Simulator.Verdict)
		}
	}
	slices.SortStableFunc(ev.Exchanges, func(a, b report.EvidenceExchange) int {
		if c := strings.Compare(a.Cassette, b.Cassette); c != 0 {
			return c
		}
		return a.Interaction - b.Interaction
	})
	names := make([]string, 0, len(fidelity))
	for n := range fidelity {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		ev.Profiles = append(ev.Profiles, *fidelity[n])
	}
	return ev, nil
}

func count(p *report.ProfileFidelity, v report.Verdict) {
	p.Exchanges++
	switch v {
	case report.VerdictAgree:
		p.Agree++
	case report.VerdictDisagree:
		p.Disagree++
	case report.VerdictUnverifiable:
		p.Unverifiable++
	default:
		p.NotChecked++
	}
}

// Attach runs the checks and adds the evidence section to m, marking the
// cells it is evidence for ([Apply]). The section covers m's targets.
func Attach(m *report.Matrix, in Inputs) error {
	in.Targets = append([]string{}, m.Targets...)
	ev, err := Run(in)
	if err != nil {
		return err
	}
	m.Evidence = ev
	Apply(m)
	return nil
}
