package scenario

import (
	"context"
	"slices"
	"strings"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
)

// AliasCell runs one scenario for alias i of target t against the
// target's cassette: the route table's decision for the alias (carriers,
// pad, flags, native fields, and the dialect's replay policy) is played on
// the target's wire. The variant battery recorded the provider's answer to
// every wire variant, so the alias is judged without re-recording; a
// decision no variant sends is unverified. The cell is named by
// Target.AliasName and is always judged through the reference engine.
func (r *Runner) AliasCell(ctx context.Context, t matrix.Target, i int, sc Scenario) report.Cell {
	name := t.AliasName(i)
	cell, ok := r.precheck(t, sc)
	cell.Target = name
	if !ok {
		return cell
	}
	table, dec, why := Rebind(r.table(), t.Route, t.Aliases[i].Route)
	if why != "" {
		cell.Status, cell.Detail = report.StatusUnverified, why
		return cell
	}
	sub := &Runner{Matrix: r.Matrix, Table: table, Profiles: r.Profiles, CassetteDir: r.CassetteDir, StrictReplay: r.StrictReplay, Cassettes: r.Cassettes}
	out := sub.run(ctx, t, sc, Fixed(dec), &cell)
	cell = sub.judge(t, sc, cell, out)
	cell.Target = name
	return cell
}

// Rebind returns a route table that decides for the target's route what
// table decides for the alias route, and the alias's decision: the
// must-echo family (which the fallback's learning reads) and the native
// dialects' policies. why is not empty when no table can replay the
// alias's decision on the target's wire (another request shape).
func Rebind(table *engine.Table, target, alias engine.Route) (*engine.Table, engine.Decision, string) {
	dec := table.Decide(alias, 0)
	out := *table
	out.EchoFamilies = nil
	if dec.EchoFamily != "" {
		out.EchoFamilies = []engine.EchoFamily{{Name: dec.EchoFamily, ProvidersRaw: []string{target.Provider}}}
	}
	switch target.APIMode {
	case engine.ModeAnthropic:
		p := table.Dialects.Anthropic
		got, want := p.Platform(alias.BaseURL, alias.Model), p.Platform(target.BaseURL, target.Model)
		switch {
		case got == want:
		case got == engine.PlatformMessages:
			// The battery records a platform target's answer to the
			// Messages API's shape too (recordMessagesPlatform): the
			// alias's request is played on the target's host in it.
			p.Platforms = nil
		default:
			return nil, dec, "the table serves the alias on the " + got + " platform and its target on " + want + ": the cassette holds no request of that shape"
		}
		rp := p.Decide(alias.BaseURL, alias.Model)
		id := rp.Route
		if id == "" {
			id = "unknown-relay"
		}
		route := engine.AnthropicRoute{ID: id, Replay: rp.Replay, PriorThinking: engine.PriorCapability, LearnRejections: rp.LearnRejections}
		prior := p.PriorThinking
		if rp.PriorThinking {
			route.PriorThinking = engine.PriorAlways
		} else if rp.Replay != engine.ReplayStripped && prior.Keeps(target.Model) {
			// The alias's model keeps no earlier thinking but the
			// target's does: a family that keeps it from no version.
			prior.Families = append([]engine.ModelFamily{{Name: claudeFamily(target.Model), KeepsFrom: &engine.ModelVersion{Major: 1 << 20}}}, prior.Families...)
		}
		rebound := engine.AnthropicPolicy{Routes: []engine.AnthropicRoute{route}, Platforms: p.Platforms, PriorThinking: prior}
		if got := rebound.Decide(target.BaseURL, target.Model); got.Replay != rp.Replay || got.PriorThinking != rp.PriorThinking || got.LearnRejections != rp.LearnRejections {
			return nil, dec, "the alias's Anthropic replay policy cannot be played on its target's model " + target.Model
		}
		out.Dialects.Anthropic = rebound
	case engine.ModeBedrockConverse:
		m := table.Dialects.Converse.For(alias.Model)
		// An empty substring matches every model: the target's included.
		out.Dialects.Converse = engine.ConversePolicy{Models: []engine.ConverseModel{{ID: m.ID, Models: []string{""}, Replay: m.Replay, RequestThinking: m.RequestThinking}}}
	}
	return &out, dec, ""
}

// claudeFamily is the family word after "claude" in a model id
// ("opus" in claude-opus-4-6), or "" when there is none.
func claudeFamily(model string) string {
	lm := strings.ToLower(model)
	i := strings.Index(lm, "claude")
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(lm[i+len("claude"):], "-_.")
	if j := strings.IndexAny(rest, "-_."); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// AliasRows runs the selected scenarios (all when none is named) for every
// alias of the selected targets (all when none is named), in target and
// alias order, as the report's alias rows; progress, when set, is called
// after each cell.
func (r *Runner) AliasRows(ctx context.Context, targets, scenarios []string, progress func(report.Cell)) []report.AliasRow {
	var out []report.AliasRow
	for _, t := range r.Matrix.Targets {
		if len(targets) > 0 && !slices.Contains(targets, t.ID) {
			continue
		}
		for i, a := range t.Aliases {
			row := report.AliasRow{Name: t.AliasName(i), Target: t.ID, Note: a.Note, Route: a.Route.String()}
			for _, sc := range All() {
				if len(scenarios) > 0 && !slices.Contains(scenarios, sc.Name) {
					continue
				}
				c := r.AliasCell(ctx, t, i, sc)
				row.Cells = append(row.Cells, c)
				if progress != nil {
					progress(c)
				}
			}
			out = append(out, row)
		}
	}
	return out
}
